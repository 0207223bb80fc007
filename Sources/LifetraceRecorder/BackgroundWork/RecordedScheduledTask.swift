import Dispatch
import LifetraceConcurrency
import LifetraceCore
import LifetraceFormat

/// A `BGTaskScheduler` task whose run the recorder records: `bg.refresh.begin` or `bg.processing.begin` when
/// its launch handler starts it, `task.expire` when its expiration handler runs, and the matching `.end`, with
/// the attribute `success`, when ``setTaskCompleted(success:)`` is called.
///
/// Made by ``Recorder/beginScheduledTask(_:identifier:setExpirationHandler:setTaskCompleted:onExpiration:)``,
/// which takes the `BGTask`'s members as closures, so this module needs no BackgroundTasks import.
public final class RecordedScheduledTask: Sendable {
    /// The kinds of `BGTask`.
    public enum Kind: Sendable {
        /// `BGAppRefreshTask`: up to about 30 seconds.
        case appRefresh
        /// `BGProcessingTask`: minutes, while the device is idle; ended when the user starts using it.
        case processing
    }

    /// The task's id in the trace.
    public let id: Int64
    /// Its kind.
    public let kind: Kind
    private let recorder: Recorder
    /// `BGTask.setTaskCompleted(success:)`, which may be called from any thread; the `BGTask` it captures need
    /// not be `Sendable` (its SDK does not say it is), so the closure is called once, by the one call that began
    /// completing the task (``completed``), once its write has landed.
    private nonisolated(unsafe) let complete: (Bool) -> Void
    /// Whether a call began completing the task.
    private let completed = LockedValue(false)

    init(id: Int64, kind: Kind, recorder: Recorder, complete: @escaping (Bool) -> Void) {
        self.id = id
        self.kind = kind
        self.recorder = recorder
        self.complete = complete
    }

    /// The longest the system is kept waiting for the end to land before `setTaskCompleted(success:)` is called
    /// anyway: a stalled disk must not keep the task running until its time runs out.
    static let completionWriteBound: DispatchTimeInterval = .seconds(2)

    /// Records the task's end, queues its write, and returns at once; `setTaskCompleted(success:)` is called once
    /// the write has landed (or after 2 seconds, if the disk does not answer), on another thread.
    /// Only the first call does anything.
    ///
    /// Call it on every path, the expiration handler's included: a task not completed before its time expires
    /// may get the app killed (`BGTask.setTaskCompleted(success:)`). The trace is written first: once the task
    /// is completed, the app may be suspended, and then killed, before it writes again. Until then the write
    /// holds off suspension itself.
    public func setTaskCompleted(success: Bool) {
        let write = completed.withLock { completed -> QueuedWrite? in
            defer { completed = true }
            guard !completed else { return nil }
            recorder.record(
                kind == .appRefresh ? .bgRefreshEnd : .bgProcessingEnd, task: id,
                attrs: [Attribute(Attribute.Key.success, .bool(success))])
            return recorder.flushDurably()
        }
        write?.whenLanded(orAfter: Self.completionWriteBound) { [self] in complete(success) }
    }

    /// Records `task.expire` and queues its write, unless the task's completion began; what the expiration
    /// handler does before it stops the work. It does not wait for the write, which holds off suspension itself.
    func expire() {
        // Recorded under the lock that ``setTaskCompleted(success:)`` takes first: never after the end it records.
        completed.withLock { completed in
            guard !completed else { return }
            recorder.record(.taskExpire, task: id)
            recorder.flushDurably()
        }
    }
}

extension Recorder {
    /// The ids of scheduled tasks start here, above any `UIBackgroundTaskIdentifier` the system hands out, so
    /// that the two kinds never share an id in one trace.
    static let scheduledTaskIDBase: Int64 = 1 << 32

    /// Records the run of a `BGTask` that a launch handler was given: its begin now, its expiration if the
    /// system calls the handler, its end when ``RecordedScheduledTask/setTaskCompleted(success:)`` is called.
    ///
    /// ```swift
    /// BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
    ///     let recorded = recorder.beginScheduledTask(.appRefresh, identifier: task.identifier,
    ///         setExpirationHandler: { task.expirationHandler = $0 },
    ///         setTaskCompleted: { task.setTaskCompleted(success: $0) },
    ///         onExpiration: { refresh.cancel() })
    ///     refresh.start { ok in recorded.setTaskCompleted(success: ok) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - kind: app refresh or processing.
    ///   - identifier: the task's identifier, recorded as its name.
    ///   - setExpirationHandler: sets the task's `expirationHandler` to the closure it is given.
    ///   - setTaskCompleted: calls the task's `setTaskCompleted(success:)`.
    ///   - onExpiration: what to stop when time runs out; it should lead to `setTaskCompleted`.
    public func beginScheduledTask(
        _ kind: RecordedScheduledTask.Kind,
        identifier: String,
        setExpirationHandler: (@escaping @Sendable () -> Void) -> Void,
        setTaskCompleted: @escaping (Bool) -> Void,
        onExpiration: (@Sendable () -> Void)? = nil
    ) -> RecordedScheduledTask {
        let id = Self.scheduledTaskIDBase + nextTaskID()
        let task = RecordedScheduledTask(id: id, kind: kind, recorder: self, complete: setTaskCompleted)
        record(kind == .appRefresh ? .bgRefreshBegin : .bgProcessingBegin, task: id, name: identifier)
        setExpirationHandler { [weak task] in
            // Queued before the work is stopped, under a hold on suspension until it lands: the system suspends
            // the app soon after.
            task?.expire()
            onExpiration?()
        }
        return task
    }
}
