import Foundation
import LifetraceCore
import LifetraceRecorder

/// A recorder opened once the trace's header is known, and closed once: by the main flow at the end of the
/// input, or by ``SignalForwarding``'s queue on SIGINT or SIGTERM, whichever comes first.
///
/// A trace is opened at most once, so a close that comes after another can never start a new file over the
/// finished one.
final class LazyRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorder: Recorder?
    private var opened = false

    /// Opens the recorder `make` returns, unless one was opened before.
    func open(_ make: () throws -> Recorder) throws {
        try lock.withLock {
            guard !opened else { return }
            recorder = try make()
            opened = true
        }
    }

    /// Records `event`, unless the recorder is not open or already closed.
    func record(_ event: LifecycleEvent) {
        lock.withLock { recorder }?.record(event)
    }

    /// Writes the last frame and the index; safe to call more than once and from any thread.
    func close() throws {
        let recorder = lock.withLock { () -> Recorder? in
            defer { self.recorder = nil }
            return self.recorder
        }
        try recorder?.close()
    }
}
