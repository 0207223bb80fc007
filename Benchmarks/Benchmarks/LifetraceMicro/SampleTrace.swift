import Foundation
import LifetraceCore
import LifetraceFormat
import LifetraceSimulator

/// A realistic trace the benchmarks read: the simulator's seeded random walk (several scenes, background tasks,
/// relaunches, jittery timestamps), cut to an exact number of events and written by the trace writer as one data
/// frame (stored, as a recorder writes it) into a file of its own in a temporary directory.
struct SampleTrace {
    /// Where this process writes its sample traces and recorders' files; removed when it exits.
    static let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("lifetrace-microbench-\(ProcessInfo.processInfo.processIdentifier)")

    /// The trace file: a header frame, one data frame, the index.
    let path: String
    /// The number of events it holds.
    let events: Int
    /// Its one data frame, decoded: what the analyzer's benchmark feeds it.
    let block: EventBlock
    /// Its header.
    let header: TraceHeader?

    /// Simulates, writes and decodes a trace of `events` events in `directory`.
    init(events: Int, in directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let simulator = Simulator(configuration: .init(scenario: .random, seed: 42, minimumEvents: events))
        var walk: [LifecycleEvent] = []
        try simulator.run { walk.append($0) }
        guard walk.count >= events else {
            throw Failure("the random walk stopped at \(walk.count) events, before \(events)")
        }
        path = directory.appendingPathComponent("sample-\(events).lifetrace").path
        // Frames end at 1 MiB or at the format's event limit, whichever comes first: far above these traces.
        let writer = try BinaryTraceWriter(sink: try FileSink(path: path), header: simulator.header)
        for event in walk.prefix(events) { try writer.append(event) }
        try writer.close()
        self.events = events

        let reader = try TraceReader(path: path, codec: .stored)
        header = reader.header
        var blocks: [EventBlock] = []
        try reader.forEachBlock(decodingThreads: 0) { blocks.append(copy $0) }
        guard blocks.count == 1, blocks[0].count == events else {
            let counts = blocks.map { $0.count }
            throw Failure("\(path): one data frame of \(events) events expected, read frames of \(counts) events")
        }
        block = blocks[0]
    }

    /// Why a sample trace could not be made.
    struct Failure: Error, CustomStringConvertible {
        let description: String

        init(_ description: String) {
            self.description = description
        }
    }
}
