import LifetraceCore
import LifetraceFormat
import LifetraceRecorder

/// A recorder opened once the trace's header is known, and closed once: by the main flow at the end of the
/// input, or by ``SignalForwarding``'s queue on SIGINT or SIGTERM, whichever comes first.
///
/// A trace is opened at most once, so a close that comes after another can never start a new file over the
/// finished one.
final class LazyRecorder: Sendable {
    private struct State {
        var recorder: Recorder?
        var opened = false
    }

    private let state = LockedValue(State())

    /// Opens the recorder `make` returns, unless one was opened before.
    func open(_ make: () throws -> Recorder) throws {
        try state.withLock { state in
            guard !state.opened else { return }
            state.recorder = try make()
            state.opened = true
        }
    }

    /// Records `event`, unless the recorder is not open or already closed.
    func record(_ event: LifecycleEvent) {
        state.withLock { $0.recorder }?.record(event)
    }

    /// Writes the last frame and the index; safe to call more than once and from any thread.
    func close() throws {
        let recorder = state.withLock { state -> Recorder? in
            defer { state.recorder = nil }
            return state.recorder
        }
        try recorder?.close()
    }
}
