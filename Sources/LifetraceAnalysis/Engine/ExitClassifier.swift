/// How a process ended, decided from what the trace showed of it: the first rule below that applies.
///
/// 1. `applicationWillTerminate` ran: a clean termination.
/// 2. The trace stops with the process alive (or suspended): the trace ended, whatever was open then — a
///    background task, a handler that had not returned. Nothing in the trace shows the process ended: its
///    events go on to the trace's end. (A log capture stops wherever it was cut; a recording, wherever it was
///    stopped.)
/// 3. A background task was open: killed with it (the system kills apps that overrun their tasks).
/// 4. `didEnterBackground` overran its budget — its duration, or, for a handler written unfinished that never
///    returned, the time its process's later events show it still running — and nothing followed: killed in
///    that handler.
/// 5. It was suspended (or idle in the background before the next launch): terminated while suspended.
/// 6. Its last state was foreground: ended in the foreground (what a crash looks like).
/// 7. Otherwise it ended running in the background.
enum ExitClassifier {
    /// What the trace showed of the process when it ended.
    struct Facts: Equatable {
        /// `applicationWillTerminate` ran.
        var terminated = false
        /// The trace was derived from a log capture.
        var derived = false
        /// A new launch ended it (rather than the trace's end or an observed exit).
        var nextLaunch = false
        /// The trace holds the exit itself (`process.exit`).
        var exitObserved = false
        /// A background task was open; one had expired.
        var openTask = false
        var expiredTask = false
        /// `didEnterBackground` overran its budget.
        var handlerOverrun = false
        /// The overrun is that of a handler written unfinished whose `handler.return` never came: known from
        /// the events its process wrote after it.
        var overrunUnreturned = false
        /// Suspended at the end, or idle in the background before the next launch.
        var suspended = false
        /// Where the UI was last.
        var ui: LifecycleModel.Accounting = .none
    }

    /// The kind of end, and why.
    static func classify(_ facts: Facts) -> (end: ProcessEnd, basis: String) {
        if facts.terminated {
            return (.cleanTerminate, "applicationWillTerminate ran")
        } else if !facts.nextLaunch, !facts.exitObserved {
            // Alive at the trace's end: what was open then (a task, a handler) is not known to have killed it.
            return (.traceEnded, facts.derived
                ? "the capture ends while the process is alive or suspended"
                : "the trace ends while the process is alive or suspended")
        } else if facts.openTask {
            return (.killedWithBackgroundTask, facts.expiredTask
                ? "a background task had expired without being ended" : "a background task was still open")
        } else if facts.handlerOverrun {
            return (.killedInBackgroundHandler, facts.overrunUnreturned
                ? "a didEnterBackground handler written unfinished was still running past its budget at its process's last event, and never returned"
                : "didEnterBackground overran its budget and nothing followed")
        } else if facts.suspended {
            return (.terminatedWhileSuspended, "suspended, then the process ended without a callback")
        } else if facts.ui == .active || facts.ui == .inactive {
            return (.endedInForeground, "the last state was foreground and no callback announced the end")
        } else {
            return (.endedInBackground, "running in the background, no callback announced the end")
        }
    }
}
