package import LifetraceCore
package import LifetraceFormat
import LifetraceRecorder
import LifetraceZstd

/// Where imported events go: a trace file, opened when the first event (and so the header) is known; in live
/// mode through a recorder that flushes every second and that the signal queue may close.
package final class ImportSink: @unchecked Sendable {
    private let output: String
    /// The file the trace goes to when not live, opened already; `nil`: `output`, opened with the first event.
    private let file: FileSink?
    /// Live mode's recorder; `nil` when the events go straight to `writer`.
    private let live: LazyRecorder?
    private var writer: (any EventWriter)?
    /// Whether events go through a live recorder, which writes them as they come.
    package var isLive: Bool { live != nil }
    /// The events written so far.
    package private(set) var events = 0

    /// A sink writing the trace at `output` (`.jsonl` for JSON Lines, `-` for standard output), through a
    /// recorder if `live`; to `file` if given (whose path is `output`), not live.
    package init(output: String, live: Bool, file: FileSink? = nil) {
        self.output = output
        self.file = live ? nil : file
        self.live = live ? LazyRecorder() : nil
    }

    private func open(_ header: TraceHeader) throws {
        if let live {
            try live.open {
                Recorder(writer: try makeEventWriter(path: output, header: header, options: .zstd), clock: .wall)
            }
        } else if writer == nil {
            writer =
                try file.map { file throws(TraceError) in
                    try makeEventWriter(sink: file, header: header, options: .zstd)
                }
                ?? makeEventWriter(path: output, header: header, options: .zstd)
        }
    }

    /// Writes `event`, opening the trace with `header` before the first.
    package func write(_ event: LifecycleEvent, header: @autoclosure () -> TraceHeader) throws {
        if events == 0 { try open(header()) }
        events += 1
        if let live {
            _ = live.record(event)
        } else {
            try writer?.append(event)
        }
    }

    /// Writes the live recorder's last frame and the index; safe to call more than once and from any thread.
    package func closeRecorder() throws {
        try live?.close()
    }

    /// Closes the trace, opening it with `header` first if no event did (an empty trace).
    package func close(header: TraceHeader) throws {
        try open(header)
        try closeRecorder()
        try writer?.close()
    }
}
