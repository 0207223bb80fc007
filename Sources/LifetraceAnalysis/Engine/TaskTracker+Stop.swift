/// How a process stopped, for its open tasks (``TaskTracker/close(at:limits:reports:)``).
extension TaskTracker {
    /// How the trace shows a process stop with tasks open: what can prove that a task's deadline passed while
    /// it was open.
    struct Stop {
        /// The last moment the trace shows the process alive: its exit, its suspension, or its last event.
        var aliveUntil: Int64
        /// The latest moment it may have lived: its exit, its suspension, the next launch; `nil` while it may
        /// still be running (the trace ends with it alive).
        var diedBy: Int64?
    }

    /// What ``close(at:limits:reports:)`` left unreported: the tasks open when their process stopped whose deadline
    /// the trace does not show passing (a kill, a crash or a capture's end while they were young).
    struct OpenAtStop: Equatable {
        /// How many tasks were open and not reported.
        var count = 0
        /// The youngest age of those, at ``Stop/aliveUntil``.
        var youngest: Int64?
    }
}

extension TaskTracker.OpenAtStop {
    /// Counts one more task left open, `age` old.
    mutating func note(age: Int64) {
        count += 1
        youngest = Swift.min(youngest ?? age, age)
    }
}
