import LifetraceCore
import LifetraceFormat

/// Writes the trace's header, then each event, as lifetrace JSON Lines (`Schemas/trace-event.schema.json`), so
/// that `lifetrace record -o run.lifetrace -- COMMAND` records what the process records: the trace is written by
/// `record`, which outlives a process killed mid-shutdown, and the process's other output passes through.
///
/// Each line goes out in one write, so lines of several recording threads do not interleave (a pipe writes up to
/// `PIPE_BUF`, at least 512 bytes, at once; an event's line is shorter unless its strings are long).
struct JSONLinesMirror: EventMirror {
    private let output: @Sendable ([UInt8]) -> Void

    /// Writes `header`'s line at once.
    ///
    /// - Parameter output: where the lines go: standard output, but for tests.
    init(header: TraceHeader, output: @escaping @Sendable ([UInt8]) -> Void) {
        self.output = output
        var line: [UInt8] = []
        JSONLinesEncoder.appendHeaderLine(header, to: &line)
        output(line)
    }

    func mirror(_ event: LifecycleEvent) {
        var line: [UInt8] = []
        JSONLinesEncoder.appendLine(event, to: &line)
        output(line)
    }
}
