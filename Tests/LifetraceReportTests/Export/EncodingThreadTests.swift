import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat
@testable import LifetraceReport
import LifetraceSimulator
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// An export made on the encoding thread is byte for byte the export its encoder writes called directly, however
/// the calls are cut into batches: a batch ending inside a block (its events read after the reader has moved on),
/// a name's text carried in one batch and used by number in the next, extra values, tracks and processes declared
/// in any batch.
@Suite struct EncodingThreadTests {
    let directory = TemporaryDirectory()

    /// The export of `path` as `format`, on the encoding thread `callsPerBatch` calls at a time, or directly.
    static func export(_ path: String, _ format: TraceExport.Format, callsPerBatch: Int?) throws -> (ExportSummary, [UInt8]) {
        let sink = CollectingSink()
        let (summary, _) = try TraceExport.export(try TraceReader(path: path), file: path, format: format, to: sink,
                                                  callsPerBatch: callsPerBatch)
        return (summary, sink.bytes)
    }

    /// Expects the exports of `path` on the thread, at each batch size, to be the direct one.
    static func expectSameExport(_ path: String, _ format: TraceExport.Format, batchSizes: [Int]) throws {
        let (summary, direct) = try export(path, format, callsPerBatch: nil)
        #expect(!direct.isEmpty)
        for size in batchSizes {
            let (threadSummary, threaded) = try export(path, format, callsPerBatch: size)
            #expect(threaded == direct, "\(path) as \(format), \(size) calls per batch")
            #expect(threadSummary == summary)
        }
    }

    /// A batch's calls are written into raw memory and never destroyed: a call must hold nothing that counts
    /// references or needs destroying.
    @Test func aCallIsPlainData() {
        #expect(_isPOD(ExportCall.self))
    }

    @Test(arguments: PackagePaths.sampleTraces(extension: "lifetrace"), TraceExport.Format.allCases)
    func samplesExportTheSameBytes(path: String, format: TraceExport.Format) throws {
        try Self.expectSameExport(path, format, batchSizes: [1, 3, EncodingThread.callsPerBatch])
    }

    /// A random walk of many frames (blocks) and processes, with markers, tasks and inferred suspensions: batches
    /// of 1 call up to the default size end at every kind of call and inside blocks.
    @Test(arguments: TraceExport.Format.allCases)
    func aWalkOfManyBlocksExportsTheSameBytes(format: TraceExport.Format) throws {
        let path = directory.file("walk.lifetrace")
        let simulator = Simulator(configuration: .init(scenario: .random, seed: 7, minimumEvents: 30_000))
        // Frames of about 16 KiB: a block of a few hundred events each.
        let writer = try BinaryTraceWriter(sink: try FileSink(path: path), header: simulator.header,
                                           options: .init(targetFrameBytes: 1 << 14))
        try simulator.run { try writer.append($0) }
        try writer.close()
        let reader = try TraceReader(path: path)
        var blocks = 0
        try reader.forEachBlock { _ in blocks += 1 }
        try #require(blocks > 3, "the walk spans several blocks")
        try Self.expectSameExport(path, format, batchSizes: [1, 2, 5, 1000, EncodingThread.callsPerBatch])
    }

    /// Markers with a thousand labels and attributes: names carried by number across batches.
    @Test(arguments: TraceExport.Format.allCases)
    func markersWithManyLabelsExportTheSameBytes(format: TraceExport.Format) throws {
        var events = [LifecycleEvent(t: 0, kind: .processLaunch, reason: "user", pid: 7)]
        for i in 0 ..< 5000 {
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
}
