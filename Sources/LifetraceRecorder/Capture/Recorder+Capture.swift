import Dispatch
import Foundation
import LifetraceConcurrency
import LifetraceCore
import LifetraceFormat

/// What the lifecycle capture needs of its recorder: events it may still amend, the header's capture
/// method, durable writes, and the captures themselves.
extension Recorder {
    /// Records an event that happens now and returns where it is buffered, for ``setReason(_:of:)``; `nil` if
    /// it was dropped.
    func recordReturningSequence(_ kind: EventKind, scene: String?, reason: String?) -> RecorderSequence? {
        let shard = shards.current
        guard
            let (sequence, t, tapped) = append(
                kind, stampNow: true, in: shard,
                { state, t in
                    state.append(kind, at: t, scene: scene, reason: reason)
                })
        else { return nil }
        tell(tapped) { LifecycleEvent(t: t, kind: kind, scene: scene, reason: reason) }
        return RecorderSequence(shard: shard, sequence: sequence)
    }

    /// Sets the `reason` of an event still buffered; `false` if it was written already.
    func setReason(_ reason: String, of event: RecorderSequence) -> Bool {
        shards.withLock(event.shard) { $0.setReason(reason, of: event.sequence) }
    }

    /// The lifecycle captures running.
    func allCaptures() -> [LifecycleCapture] {
        captures.withLock { Array($0.values) }
    }

    /// Sets the header's `capture` member if the header is not written yet (it is written with the first
    /// frame); otherwise checks that the written header already says `method`.
    func setCaptureMethod(_ method: TraceHeader.CaptureMethod) throws(RecorderError) {
        let written = output.withLock { output in output.header }
        if let written, written.captureMethod == method { return }
        guard output.withLock({ output in output.updateHeader { $0.captureMethod = method } }) else {
            throw RecorderError(
                .headerAlreadyWritten,
                "the trace's header was written before the lifecycle capture started, without "
                    + "\"capture\": \"\(method.rawValue)\": start the capture before recording, or "
                    + "use Recorder.start(_:)")
        }
    }

    /// Queues a write of everything buffered, unfinished spans included (written without `dur`, their duration to
    /// follow in a `handler.return`, whatever ``RecorderConfiguration/maxSpanHold`` says), and holds off the
    /// process's suspension until it lands, under a background-time assertion on Apple's device platforms
    /// (``BackgroundActivity``): what the lifecycle capture does on resigning active, entering the background and
    /// hiding, and what ending a background task or completing a `BGTask` does before the system is told. It
    /// returns at once, whatever the writer is doing: the caller may be the main thread. A failure is reported to
    /// the unified log (``RecorderDiagnostics``), not thrown.
    /// The write takes every event recorded before this call (and any recorded before it runs).
    ///
    /// - Parameter bound: how long to wait for the write to land before returning, if at all: the capture waits
    ///   on termination, after which the process may end at once (``LifecycleCapture/terminationWriteBound``).
    /// - Returns: the queued write.
    @discardableResult
    func flushDurably(waitingAtMost bound: DispatchTimeInterval? = nil) -> QueuedWrite {
        let write = QueuedWrite()
        let hold = probes.holdSuspension ?? BackgroundActivity.hold
        hold("lifetrace: writing the lifecycle trace", write)
        writerQueue.async { [self] in
            do throws(TraceError) {
                try writeOut(force: false, releasingSpans: true)
            } catch {
                RecorderDiagnostics.report("could not write the trace: \(error)")
            }
            write.land()
        }
        if let bound { write.wait(atMost: bound) }
        return write
    }

    /// The capture of `center`'s notifications, made once and held until the recorder closes.
    func capture(of center: NotificationCenter, make: () -> LifecycleCapture) -> (LifecycleCapture, isNew: Bool) {
        captures.withLock { captures in
            let key = ObjectIdentifier(center)
            if let existing = captures[key] { return (existing, false) }
            let made = make()
            captures[key] = made
            return (made, true)
        }
    }
}

/// Where a recorded event waits in the recorder's buffers.
struct RecorderSequence: Sendable {
    var shard: Int
    var sequence: Int
}
