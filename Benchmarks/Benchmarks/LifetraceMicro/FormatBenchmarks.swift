import Benchmark
import LifetraceFormat

/// Reading a trace: the header, then one data frame decoded into a block, on the reading thread.
enum FormatBenchmarks {
    /// Opens `trace` and decodes its one data frame, as `lifetrace check` reads each frame.
    @inline(never)
    static func decode(_ trace: SampleTrace) throws -> Int {
        let reader = try TraceReader(path: trace.path, codec: .stored)
        var events = 0
        try reader.forEachBlock(decodingThreads: 0) { events += $0.count }
        return events
    }

    static func register(_ traces: [SampleTrace]) {
        // A block keeps one record per event and one string per distinct string of the frame, in arrays that
        // grow geometrically: reading allocates for the reader (its file, its buffers, the header's values)
        // and a few times per block, never per record: today 72 above the empty measurement at 1,000 events and
        // 75 at 4,000. A record that allocated would add 1,000 and 4,000. 2 of tolerance for a string table or
        // a record array that a different hash seed grows once more.
        for trace in traces {
            Benchmark(
                "TraceReader.decodeOneFrame.\(trace.events)events",
                configuration: MicroBenchmark.configuration(mallocTolerance: 2)
            ) { benchmark in
                for _ in benchmark.scaledIterations { blackHole(try decode(trace)) }
            }
        }
    }
}
