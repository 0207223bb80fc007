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
    /// The write of the task's `task.end`, once a call began ending it.
    private let ending = LockedValue<QueuedWrite?>(nil)
    /// Whether a thread began telling the system the task ended.
    private let telling = LockedValue(false)
    /// Left once the system has been told the task ended, for an expiration handler to wait on.
    private let told = DispatchGroup()

    /// The longest the system is kept waiting for `task.end` to land before it is told anyway, when ``end()`` is
    /// called: a stalled disk must not keep a task open until its time runs out.
    static let endWriteBound: DispatchTimeInterval = .seconds(2)
    /// The longest the expiration handler waits for `task.end` to land before it ends the task: it runs on the
    /// main thread, and the app is killed if the task is still open when it returns.
    static let expirationWriteBound: DispatchTimeInterval = .milliseconds(500)
    /// The longest the expiration handler waits for another thread that is telling the system.
    static let tellWait: DispatchTimeInterval = .seconds(1)

    init(identifier: Int, recorder: Recorder, end: @escaping @Sendable (Int) -> Void) {
        self.identifier = identifier
        self.recorder = recorder
        self.endTask = end
        told.enter()
    }

    /// Whether the system began the task (its identifier is not `.invalid`).
    public var isValid: Bool { identifier != 0 }

    /// Records `task.end`, queues its write, and returns at once; the system is told the task ended once the
    /// write has landed (or after 2 seconds, if the disk does not answer), on another thread. Only the
    /// first call does anything, so calling it both when the work finishes and from the expiration handler is
    /// safe, as Apple's documentation asks.
    ///
    /// The trace is written before the task is ended: an app with no task left may be suspended at once, and a
    /// suspended app may be killed before it writes again. Until then the write holds off suspension itself.
    public func end() {
        guard let write = beginEnding() else { return }
        write.whenLanded(orAfter: Self.endWriteBound) { [self] in tellSystem() }
    }

    /// Records `task.expire` (unless the task was ended already), runs `work`, then ends the task before it
    /// returns: what the expiration handler must do (`beginBackgroundTask(withName:expirationHandler:)`:
    /// "Failure to end the task explicitly will result in the termination of the app"). It waits for
    /// `task.end` to land at most half a second (`expirationWriteBound`).
    func expire(_ work: (@Sendable () -> Void)?) {
        // Recorded under the lock that ends the task: never after the end it begins.
        ending.withLock { write in
            if write == nil, isValid { recorder.record(.taskExpire, task: Int64(identifier)) }
        }
        work?()
        guard isValid else { return }
        // The write of an end begun here, or by the work's completion a moment ago.
        let write = beginEnding() ?? ending.withLock { $0 }
        write?.wait(atMost: Self.expirationWriteBound)
        if !tellSystem() { _ = told.wait(timeout: .now() + Self.tellWait) }
    }

    /// Records `task.end` and queues its write, if no call did yet; the write, or `nil` if another call began the
    /// end (or the task is not valid).
    private func beginEnding() -> QueuedWrite? {
        // Queued under the lock, so that a second call finds the write (queuing it waits for nothing).
        ending.withLock { write in
            guard write == nil, isValid else { return nil }
            recorder.record(.taskEnd, task: Int64(identifier))
            write = recorder.flushDurably()
            return write
        }
    }

    /// Tells the system the task ended, if no thread did yet; whether this call did.
    @discardableResult
    private func tellSystem() -> Bool {
        guard telling.claim() else { return false }
        endTask(identifier)
        told.leave()
        return true
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
    ///   - end: calls `endBackgroundTask(_:)` with the identifier, at once, on the thread it is called on: a
    ///     thread of the recorder's once the trace is written, or the expiration handler's (the main thread), which
    ///     must end the task before it returns. `endBackgroundTask(_:)` may be called from any thread.
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
