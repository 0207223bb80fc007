import LifetraceCore
import LifetraceFormat

/// Chrome's Trace Event Format (JSON), which Perfetto UI, `chrome://tracing` and Speedscope open, written as it
/// comes: a `pid` per traced process, a `tid` per track, slices as complete events (`X`) or begin/end pairs
/// (`B`/`E`), instants as `i`, names and order as metadata (`M`).
///
/// Times are microseconds from the trace's first event, written from integer nanoseconds with exactly three
/// digits of fraction (`12.000345`). A viewer parses them into doubles and multiplies by 1,000; up to
/// ``exactRange`` (2^51 ns, about 26 days) from the first event the two roundings together stay under half a
/// nanosecond (at most 0.37 ns), so it gets back the exact nanosecond. Past it, times are written as whole
/// microseconds (floored), which doubles hold exactly, and a slice's duration is the difference of its two
/// floored ends: slices that touch still touch and slices that nest still nest after the viewer's rounding,
/// at the cost of the nanoseconds, which ``reducedPrecision`` and the file's `otherData.time_precision` say.
final class ChromeJSONEncoder: ExportEncoder {
    /// How far from the first event a time keeps its nanoseconds when a viewer parses it as a double.
    static let exactRange: Int64 = 1 << 51

    private let output: ExportOutput
    /// The bytes to write, and what writes events into them.
    private let state = InPlace(ChromeJSONWriter())
    private var json: ChromeJSONWriter {
        _read { yield state.value }
        _modify { yield &state.value }
    }
    /// Whether any time was floored to the microsecond (see ``exactRange``).
    var reducedPrecision: Bool { json.reducedPrecision }

    /// An encoder writing to `sink`, on a thread of its own if `writesOnThread` (``ExportOutput``).
    init(sink: any TraceSink, writesOnThread: Bool = false) {
        output = ExportOutput(sink: sink, onThread: writesOnThread)
        json.buffer.reserve(ExportOutput.bufferSize + 4096)
    }

    deinit {
        state.free()
    }

    func start(origin: Int64) {
        json.origin = origin
    }

    func declare(_ process: ExportProcess) {
        json.declare(process)
    }

    func declare(_ track: ExportTrack, name: ExportTrackName) {
        json.declare(track, name: name)
    }

    func slice(
        on track: ExportTrack, name: ExportName, category: ExportCategory, from start: Int64, to end: Int64,
        _ arguments: ExportArguments
    ) {
        if json.slice(on: track, name: name, category: category, from: start, to: end, arguments) { write() }
    }

    func begin(
        on track: ExportTrack, name: ExportName, category: ExportCategory, at t: Int64, _ arguments: ExportArguments
    ) {
        if json.begin(on: track, name: name, category: category, at: t, arguments) { write() }
    }

    func end(on track: ExportTrack, at t: Int64, _ arguments: ExportArguments) {
        if json.end(on: track, at: t, arguments) { write() }
    }

    func instant(
        on track: ExportTrack, name: ExportName, category: ExportCategory, at t: Int64, _ arguments: ExportArguments
    ) {
        if json.instant(on: track, name: name, category: category, at: t, arguments) { write() }
    }

    func instant(
        on track: ExportTrack, name: ExportName, category: ExportCategory, at t: Int64, _ arguments: ExportArguments,
        notes: [ExportNote]
    ) {
        if json.instant(on: track, name: name, category: category, at: t, arguments, notes: notes) { write() }
    }

    func finish(_ summary: ExportSummary) throws(TraceError) {
        json.finish(summary)
        write()
        try output.finish()
    }

    /// What `otherData.time_precision` says, and the export's warning, when times past ``exactRange`` were floored.
    static let reducedPrecisionNote =
        "µs: the trace spans more than 26 days, so times past that are whole microseconds "
        + "(a viewer's doubles hold no more); the Perfetto format keeps nanoseconds"

    /// `ns` floored to a whole number of microseconds.
    static func flooredToMicroseconds(_ ns: Int64) -> Int64 {
        let remainder = ns % 1000
        return ns - (remainder < 0 ? remainder + 1000 : remainder)
    }

    private func write() {
        output.write(&json.buffer)
    }
}
