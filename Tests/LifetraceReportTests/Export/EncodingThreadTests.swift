import Foundation
import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat
import LifetraceTestSupport
import LifetraceZstd
import Testing

@testable import LifetraceReport

/// An export made on the encoding thread is byte for byte the export its encoder writes called directly, however
/// the calls are cut into batches: a batch ending inside a block (its events read after the reader has moved on),
/// a name's text carried in one batch and used by number in the next, extra values, tracks and processes declared
/// in any batch; and it fails as the direct export fails.
@Suite struct EncodingThreadTests {
    let directory = TemporaryDirectory()

    /// The export of `path` as `format` to `sink`, on the encoding thread `callsPerBatch` calls at a time, or directly.
    static func export(
        _ path: String, _ format: TraceExport.Format, callsPerBatch: Int?,
        to sink: any TraceSink = CollectingSink()
    ) throws -> ExportSummary {
        try TraceExport.export(
            try TraceReader(path: path), file: path, format: format, to: sink,
            callsPerBatch: callsPerBatch
        ).summary
    }

    /// Expects the exports of `path` on the thread, at each batch size, to be the direct one.
    static func expectSameExport(_ path: String, _ format: TraceExport.Format, batchSizes: [Int]) throws {
        let direct = CollectingSink()
        let summary = try export(path, format, callsPerBatch: nil, to: direct)
        #expect(!direct.bytes.isEmpty)
        for size in batchSizes {
            let threaded = CollectingSink()
            let threadSummary = try export(path, format, callsPerBatch: size, to: threaded)
            #expect(threaded.bytes == direct.bytes, "\(path) as \(format), \(size) calls per batch")
            #expect(threadSummary == summary)
        }
    }

    /// Writes the random walk of `seed` with at least `events` events in frames of about `frameBytes` bytes.
    func walk(seed: UInt64, events: Int, frameBytes: Int) throws -> String {
        let path = directory.file("walk-\(seed)-\(frameBytes).lifetrace")
        try RandomWalks.write(seed: seed, events: events, frameBytes: frameBytes, to: path)
        return path
    }

    @Test(
        arguments: PackagePaths.sampleTraces(extension: "lifetrace") + PackagePaths.sampleTraces(extension: "jsonl"),
        TraceExport.Format.allCases)
    func samplesExportTheSameBytes(path: String, format: TraceExport.Format) throws {
        try Self.expectSameExport(path, format, batchSizes: [1, 3, EncodingThread.callsPerBatch])
    }

    /// A random walk of many frames (blocks) and processes, with markers, tasks and inferred suspensions: batches
    /// of 1 call up to the default size end at every kind of call and inside blocks.
    @Test(arguments: TraceExport.Format.allCases)
    func aWalkOfManyBlocksExportsTheSameBytes(format: TraceExport.Format) throws {
        // Frames of about 16 KiB: a block of a few hundred events each.
        let path = try walk(seed: 7, events: 30_000, frameBytes: 1 << 14)
        var blocks = 0
        try TraceReader(path: path).forEachBlock { _ in blocks += 1 }
        try #require(blocks > 3, "the walk spans several blocks")
        try Self.expectSameExport(path, format, batchSizes: [1, 2, 5, 1000, EncodingThread.callsPerBatch])
    }

    /// The progress an export reports is the events exported before each block: the sums of the blocks' sizes as
    /// the reader gives them, from 0, one per block, on the threaded export and the direct one alike.
    @Test(arguments: [nil, EncodingThread.callsPerBatch])
    func progressIsTheEventsBeforeEachBlock(callsPerBatch: Int?) throws {
        let path = try walk(seed: 5, events: 8_000, frameBytes: 1 << 12)
        var before: [Int] = []
        var total = 0
        try TraceReader(path: path).forEachBlock { block in
            before.append(total)
            total += block.count
        }
        try #require(before.count > 3, "the walk spans several blocks")
        var told: [Int] = []
        let (summary, _) = try TraceExport.export(
            try TraceReader(path: path), file: path, format: .perfetto,
            to: CollectingSink(), callsPerBatch: callsPerBatch,
            progress: { told.append($0) })
        #expect(told == before)
        #expect(summary.events == total)
    }

    /// The encoding thread made to lag behind the reader, across blocks of a few dozen events each: every field of
    /// every call's event is read on the thread long after the reader has decoded later frames into its own block,
    /// and is what the direct calls read.
    @Test func eventsAreReadFromPinnedBlocksWhenTheThreadLags() throws {
        let path = try walk(seed: 11, events: 5_000, frameBytes: 1 << 9)
        let header = try TraceReader(path: path).header
        let direct = FieldRecorder(pauseEvery: nil)
        let exporter = TraceExporter(file: path, header: header, encoder: direct)
        _ = try TraceAnalyzer.analyze(try TraceReader(path: path), file: path, observer: exporter)
        try exporter.finish()

        let lagging = FieldRecorder(pauseEvery: 64)
        let threaded = TraceExporter(file: path, header: header, encoder: EncodingThread(lagging, callsPerBatch: 700))
        _ = try TraceAnalyzer.analyze(try TraceReader(path: path), file: path, observer: threaded)
        try threaded.finish()
        #expect(lagging.lines.count > 5_000)
        #expect(lagging.lines == direct.lines)
    }

    /// Markers with a thousand labels and attributes: names carried by number across batches.
    @Test(arguments: TraceExport.Format.allCases)
    func markersWithManyLabelsExportTheSameBytes(format: TraceExport.Format) throws {
        var events = [LifecycleEvent(t: 0, kind: .processLaunch, reason: "user", pid: 7)]
        for i in 0..<5000 {
            var marker = LifecycleEvent(t: Int64(1000 + i * 10), kind: .custom)
            marker.label = "mark-\(i % 1000)"
            marker.attrs = [Attribute("step", .int(Int64(i))), Attribute("note", .string("n\(i % 13)"))]
            events.append(marker)
        }
        let path = directory.file("markers.lifetrace")
        let writer = try BinaryTraceWriter(sink: try FileSink(path: path), header: TraceHeader(app: "Markers"))
        for event in events { try writer.append(event) }
        try writer.close()
        try Self.expectSameExport(path, format, batchSizes: [1, 64, EncodingThread.callsPerBatch])
    }

    /// A trace cut inside its last frame: the warning the reading gives is written after the analysis, by calls
    /// that follow every event's.
    @Test(arguments: TraceExport.Format.allCases)
    func aTruncatedTraceExportsTheSameBytes(format: TraceExport.Format) throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: try walk(seed: 5, events: 3_000, frameBytes: 1 << 12)))
        let path = directory.file("truncated.lifetrace")
        try whole.prefix(whole.count - 100).write(to: URL(fileURLWithPath: path))
        try Self.expectSameExport(path, format, batchSizes: [1, 7, EncodingThread.callsPerBatch])
    }

    /// A frame damaged past the first: the export on the thread fails with the direct export's error, its thread
    /// stopped (the call returns).
    @Test(arguments: TraceExport.Format.allCases)
    func aDamagedTraceFailsAsTheDirectExportFails(format: TraceExport.Format) throws {
        var bytes = [UInt8](
            try Data(contentsOf: URL(fileURLWithPath: try walk(seed: 9, events: 3_000, frameBytes: 1 << 12))))
        // A byte of zstd's output in the middle of the file: that frame no longer decompresses or checks.
        bytes[bytes.count / 2] ^= 0xFF
        let path = directory.file("damaged.lifetrace")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let direct = #expect(throws: TraceError.self) { try Self.export(path, format, callsPerBatch: nil) }
        for size in [1, 50, EncodingThread.callsPerBatch] {
            let threaded = #expect(throws: TraceError.self) { try Self.export(path, format, callsPerBatch: size) }
            #expect(threaded?.description == direct?.description)
        }
    }

    /// A sink that fails: the export on the thread throws the sink's error, as the direct export does.
    @Test(arguments: TraceExport.Format.allCases)
    func aFailingSinkFailsTheExportAsCalledDirectly(format: TraceExport.Format) throws {
        let path = try walk(seed: 3, events: 20_000, frameBytes: 1 << 14)
        let direct = #expect(throws: TraceError.self) {
            try Self.export(path, format, callsPerBatch: nil, to: FailingSink())
        }
        let threaded = #expect(throws: TraceError.self) {
            try Self.export(path, format, callsPerBatch: 100, to: FailingSink())
        }
        #expect(direct?.description.contains("no space left") == true)
        #expect(threaded?.description == direct?.description)
    }

    /// A sink whose second write fails, as a full disk would.
    final class FailingSink: TraceSink {
        var writes = 0
        func write(_ bytes: UnsafeRawBufferPointer) throws(TraceError) {
            writes += 1
            if writes >= 2 {
                throw TraceError(.io, file: "out.pftrace", at: .file, "write failed: no space left on device")
            }
        }
        func flush() throws(TraceError) {}
    }
}
