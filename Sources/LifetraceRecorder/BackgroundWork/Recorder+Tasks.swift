import LifetraceConcurrency
import LifetraceCore

extension Recorder {
    /// Records `task.begin` for a task numbered anew and returns its number, for ``endTask(_:)``.
    public func beginTask(name: String? = nil) -> TaskID {
        let id = nextTaskID()
        record(.taskBegin, task: id, name: name)
        return TaskID(rawValue: id)
    }

    /// A task id not handed out before: 1, 2, 3, ...
    func nextTaskID() -> Int64 {
        taskIDs.withLock { next -> Int64 in
            next += 1
            return next
        }
    }

    /// Records `task.end` for `task`.
    public func endTask(_ task: TaskID) {
        record(.taskEnd, task: task.rawValue)
    }
}
