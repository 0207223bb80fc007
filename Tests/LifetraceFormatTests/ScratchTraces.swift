import LifetraceCore
import LifetraceTestSupport
import LifetraceZstd

@testable import LifetraceFormat

/// Writes traces into a temporary directory and reads them back, for the format's tests.
struct ScratchTraces {
    let directory = TemporaryDirectory()

    /// The bytes of a binary trace of `events`, with a frame ended after each count in `frameSizes`
    /// (the rest in one last frame), and the offset of every data frame.
    func binary(
        header: TraceHeader?,
        _ events: [LifecycleEvent],
        frameSizes: [Int] = [],
        close: Bool = true,
        codec: FrameCodec = .zstd
    ) throws -> (bytes: [UInt8], frameOffsets: [Int]) {
        let writer = try BinaryTraceWriter(sink: MemorySink(), header: header, options: .init(codec: codec))
        var offsets: [Int] = []
        var remaining = events[...]
        for size in frameSizes {
            offsets.append(writer.bytesWritten)
            for event in remaining.prefix(size) { try writer.append(event) }
            remaining = remaining.dropFirst(size)
            try writer.flush()
        }
        if !remaining.isEmpty { offsets.append(writer.bytesWritten) }
        for event in remaining { try writer.append(event) }
        if close { try writer.close() } else { try writer.flush() }
        return (writer.memoryBytes!, offsets)
    }

    /// Reads every event of the file at `path`, decompressing with `codec`.
    func readAll(_ path: String, codec: FrameCodec = .zstd) throws(TraceError) -> (
        header: TraceHeader?, events: [LifecycleEvent], reader: TraceReader
    ) {
        let reader = try TraceReader(path: path, codec: codec)
        var events: [LifecycleEvent] = []
        while let event = try reader.next() { events.append(event) }
        return (reader.header, events, reader)
    }

    /// The error reading the file at `path` with `codec` throws, or `nil` if it reads.
    func readError(_ path: String, codec: FrameCodec = .zstd) -> TraceError? {
        do throws(TraceError) {
            _ = try readAll(path, codec: codec)
            return nil
        } catch {
            return error
        }
    }

    /// The canonical JSON Lines text of a trace.
    static func jsonLines(header: TraceHeader?, _ events: [LifecycleEvent]) -> String {
        var bytes: [UInt8] = []
        if let header { JSONLinesEncoder.appendHeaderLine(header, to: &bytes) }
        for event in events { JSONLinesEncoder.appendLine(event, to: &bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
