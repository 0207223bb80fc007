import LifetraceConcurrency
package import LifetraceCore
import LifetraceFormat
package import LifetraceRecorder

/// A recorder opened once the trace's header is known, and closed once: by the main flow at the end of the
/// input, or by a signal handler's queue on SIGINT or SIGTERM, whichever comes first.
///
/// A trace is opened at most once, so a close that comes after another can never start a new file over the
/// finished one.
package final class LazyRecorder: Sendable {
    private struct State {
        var recorder: Recorder?
        var opened = false
        /// Events the recorder lost (failed writes, events after its close), read when it closes.
        var dropped = 0
    }

    private let state = LockedValue(State())

    /// A recorder not opened yet.
    package init() {}

    /// Opens the recorder `make` returns, unless one was opened before.
    package func open(_ make: () throws -> Recorder) throws {
        try state.withLock { state in
            guard !state.opened else { return }
            state.recorder = try make()
            state.opened = true
        }
    }

    /// Records `event`, unless the recorder is not open or already closed; `true` if it was recorded.
    ///
    /// Holds the lock while recording, so an event is either recorded before a close or not at all.
    package func record(_ event: LifecycleEvent) -> Bool {
        state.withLock { $0.recorder?.record(event) ?? false }
    }

    /// Writes the last frame and the index; safe to call more than once and from any thread. A second call
    /// while the first is writing waits for it, so that the process never exits with the index half written.
    package func close() throws {
        try state.withLock { state in
            defer {
                if let recorder = state.recorder { state.dropped = recorder.droppedEventCount }
                state.recorder = nil
            }
            try state.recorder?.close()
        }
    }

    /// The number of events the recorder lost: to writes that failed (a full disk), or refused after its close.
    package var droppedEventCount: Int {
        state.withLock { $0.recorder?.droppedEventCount ?? $0.dropped }
    }
}
