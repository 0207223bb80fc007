import LifetraceCore

/// Background tasks begun with `beginBackgroundTask`.
extension SimulatedProcess {
    /// Apple, “Extending your app’s background execution time”: `beginBackgroundTask` before long work, `endBackgroundTask` when done.
    mutating func backgroundTask(name: String, work: Int64, expires: Bool) throws {
        nextTaskID += 1
        let id = nextTaskID
        try instant(.taskBegin) {
            $0.task = id
            $0.name = name
        }
        if faults.contains(.leakedBackgroundTask) {
            // Never ended: the expiration handler runs and does not end it either; the system kills the app.
            try idle(timing.expiry())
            try instant(.taskExpire) { $0.task = id }
            try idle(timing.uniform(1 * TimingModel.second, 3 * TimingModel.second))
            try terminate(reason: "background-task-assertion-timeout")
            return
        }
        if expires {
            try idle(timing.expiry())
            try instant(.taskExpire) { $0.task = id }
        } else {
            try idle(work)
        }
        try instant(.taskEnd) { $0.task = id }
        if faults.contains(.taskEndedTwice) { try instant(.taskEnd) { $0.task = id } }
    }
}
