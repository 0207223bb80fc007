import LifetraceCore
import LifetraceFormat

/// Perfetto's own trace format (protobuf `TracePacket`s with `TrackEvent`s), written as it comes: a process
/// track per traced process, a child track per lane, slices as `TYPE_SLICE_BEGIN`/`TYPE_SLICE_END` pairs,
/// instants as `TYPE_INSTANT`, with every event's fields as debug annotations.
///
/// Names, categories and annotation names are interned on one packet sequence (each sent once, in the first
/// packet that uses it; a name past ``PerfettoEncoder/internedLimit`` distinct ones is written inline, so that
/// memory stays bounded whatever the trace names). Timestamps are the trace's own nanoseconds, exact. Each packet
/// is written as one `packet` field of the `Trace` message, which is what a Perfetto trace file is: the field's key
/// and length, then the packet. Track descriptors and track events are written straight in the wire format into
/// reused scratch buffers, byte for byte what swift-protobuf writes for the same `PerfettoTracePacket` (the tests
/// decode them with the generated types and compare); the generated messages stay the schema's reference.
final class PerfettoEncoder: ExportEncoder {
    /// `Trace.packet`'s key: field 1, length-delimited.
    static let packetKey: UInt8 = 1 << 3 | 2
    /// The most distinct event and annotation names interned; later ones are written inline.
    static let internedLimit = 1 << 16
    /// The one packet sequence of the file.
    static let sequenceID: UInt32 = 1

    private let output: ExportOutput
    /// The bytes to write, and what writes track events into them.
    private let state = InPlace(PerfettoWireWriter())
    private var wire: PerfettoWireWriter {
        _read { yield state.value }
        _modify { yield &state.value }
    }

    /// An encoder writing to `sink`, on a thread of its own if `writesOnThread` (``ExportOutput``).
    init(sink: any TraceSink, writesOnThread: Bool = false) {
        output = ExportOutput(sink: sink, onThread: writesOnThread)
        wire.buffer.reserve(ExportOutput.bufferSize + 4096)
    }

    deinit {
        state.free()
    }

    func start(origin: Int64) {}

    func declare(_ process: ExportProcess) {
        if wire.declare(process) { write() }
    }

    func declare(_ track: ExportTrack, name: ExportTrackName) {
        if wire.declare(track, name: name) { write() }
    }

    func slice(
        on track: ExportTrack, name: ExportName, category: ExportCategory, from start: Int64, to end: Int64,
        _ arguments: ExportArguments
    ) {
        if wire.slice(on: track, name: name, category: category, from: start, to: end, arguments) { write() }
    }

    func begin(
        on track: ExportTrack, name: ExportName, category: ExportCategory, at t: Int64, _ arguments: ExportArguments
    ) {
        if wire.trackEvent(.sliceBegin, on: track, name: name, category: category, at: t, arguments) { write() }
    }

    func end(on track: ExportTrack, at t: Int64, _ arguments: ExportArguments) {
        if wire.trackEvent(.sliceEnd, on: track, name: nil, category: nil, at: t, arguments) { write() }
    }

    func instant(
        on track: ExportTrack, name: ExportName, category: ExportCategory, at t: Int64, _ arguments: ExportArguments
    ) {
        if wire.trackEvent(.instant, on: track, name: name, category: category, at: t, arguments) { write() }
    }

    func instant(
        on track: ExportTrack, name: ExportName, category: ExportCategory, at t: Int64, _ arguments: ExportArguments,
        notes: [ExportNote]
    ) {
        if wire.trackEvent(.instant, on: track, name: name, category: category, at: t, arguments, notes: notes) {
            write()
        }
    }

    func finish(_ summary: ExportSummary) throws(TraceError) {
        write()
        try output.finish()
    }

    private func write() {
        output.write(&wire.buffer)
    }
}
