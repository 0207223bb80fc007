import Dispatch
import LifetraceConcurrency
import LifetraceCore
import LifetraceFormat

/// A `UIApplication` background task whose life the recorder records: `task.begin` when it begins,
/// `task.expire` when its expiration handler runs, `task.end` when it ends.
///
/// Made by ``Recorder/beginBackgroundTask(name:begin:end:onExpiration:)``, which takes UIKit's calls as
/// closures, so this module needs no UIKit.
public final class RecordedBackgroundTask: Sendable {
    /// The identifier the system gave the task (`UIBackgroundTaskIdentifier.rawValue`), which the trace uses
    /// too, as the unified log does; 0 (`.invalid`) if the system gave none.
    public let identifier: Int
    private let recorder: Recorder
    private let endTask: @Sendable (Int) -> Void
    /// Whether a call began ending the task.
    private let ending = LockedValue(false)
    /// Entered by the call that ends the task until it has ended it, for another call to wait on.
    private let ended = DispatchGroup()
    /// The longest a second call waits for the first to end the task: it calls no code of the app's while it
    /// waits, so a first call that cannot go on (its `end` closure waiting for the main thread the expiration
    /// handler holds) delays the handler this long, no longer.
    static let endWait: DispatchTimeInterval = .seconds(1)

    init(identifier: Int, recorder: Recorder, end: @escaping @Sendable (Int) -> Void) {
        self.identifier = identifier
        self.recorder = recorder
        self.endTask = end
    }

    /// Whether the system began the task (its identifier is not `.invalid`).
    public var isValid: Bool { identifier != 0 }

    /// Records `task.end`, writes the trace, and ends the task. Only the first call does anything, so calling it
    /// both when the work finishes and from the expiration handler is safe, as Apple's documentation asks.
    ///
    /// The trace is written before the task is ended: an app with no task left may be suspended at once, and a
    /// suspended app may be killed before it writes again.
    ///
    /// A call made while another is ending the task waits for it, a second at most: the expiration handler,
    /// called while the work's completion writes the trace, returns with the task ended, as UIKit asks.
    public func end() {
        let first = ending.withLock { ending in
            defer { ending = true }
            if !ending { ended.enter() }
            return !ending
        }
        guard first else {
            _ = ended.wait(timeout: .now() + Self.endWait)
            return
        }
        defer { ended.leave() }
        guard isValid else { return }
        recorder.record(.taskEnd, task: Int64(identifier))
        recorder.flushBeforeSuspension()
        endTask(identifier)
    }

    /// Records `task.expire` (unless the task was ended already), runs `work`, then ends the task: what the
    /// expiration handler must do (`beginBackgroundTask(withName:expirationHandler:)`: "Failure to end the task
    /// explicitly will result in the termination of the app").
    func expire(_ work: (@Sendable () -> Void)?) {
        // Recorded under the lock that ``end()`` takes first: never after the end it begins.
        ending.withLock { ending in
            if !ending, isValid { recorder.record(.taskExpire, task: Int64(identifier)) }
        }
        work?()
        end()
    }
}

extension Recorder {
    /// Begins a `UIApplication` background task and records its life: `task.begin` now, `task.expire` if the
    /// system calls its expiration handler, `task.end` when ``RecordedBackgroundTask/end()`` is called or
    /// the handler has run.
    ///
    /// ```swift
    /// let application = UIApplication.shared  // on the main actor; endBackgroundTask(_:) is nonisolated
    /// let task = recorder.beginBackgroundTask(name: "upload",
    ///     begin: { name, expire in application.beginBackgroundTask(withName: name, expirationHandler: expire).rawValue },
    ///     end: { application.endBackgroundTask(UIBackgroundTaskIdentifier(rawValue: $0)) },
    ///     onExpiration: { upload.cancel() })
    /// upload.start { task.end() }
    /// ```
    ///
    /// Begin the task before the long work starts, in the foreground if that is where it starts: the time a
    /// task is given counts from when the app enters the background.
    ///
    /// - Parameters:
    ///   - name: the task's name, for the debugger and the trace.
    ///   - begin: calls `beginBackgroundTask(withName:expirationHandler:)` with the name and the expiration
    ///     handler it is given, and returns the identifier's `rawValue`.
    ///   - end: calls `endBackgroundTask(_:)` with the identifier, at once, on the thread it is called on (the
    ///     expiration handler's, the main thread, must end the task before it returns); called after the trace
    ///     is written.
    ///   - onExpiration: what to stop when time runs out, run by the expiration handler before it ends the task.
    public func beginBackgroundTask(
        name: String? = nil,
        begin: (_ name: String?, _ expirationHandler: @escaping @Sendable () -> Void) -> Int,
        end: @escaping @Sendable (Int) -> Void,
        onExpiration: (@Sendable () -> Void)? = nil
    ) -> RecordedBackgroundTask {
        let slot = LockedValue<RecordedBackgroundTask?>(nil)
        let identifier = begin(name) { slot.withLock { $0 }?.expire(onExpiration) }
        let task = RecordedBackgroundTask(identifier: identifier, recorder: self, end: end)
        if task.isValid { record(.taskBegin, task: Int64(identifier), name: name) }
        slot.withLock { $0 = task }
        return task
    }
}
