import Benchmark
import LifetraceFormat
import LifetraceReport

/// The Perfetto export of a trace: reading it, analyzing it, and writing every event as protobuf packets.
enum ExportBenchmarks {
    static func register(_ traces: [SampleTrace]) {
        // The whole export, to /dev/null, as `lifetrace export` runs it: the reader (decoding on a worker
        // thread), the analyzer with its models compiled, the exporter and the protobuf encoder. Unlike the
        // stages above it still allocates per event today: 906 above the empty measurement at 1,000 events
        // and 2,075 at 4,000, about 0.4 per event once the fixed part is set aside, most of them per process
        // the walk starts (1.9 per event before a process reused its tracks' memory). The thresholds hold
        // today's counts, so that it allocates no more while it is made to allocate less; 30 of tolerance for
        // the worker thread's timing (the counts spread by up to 10 from one iteration to the next).
        for trace in traces {
            Benchmark(
                "TraceExport.perfetto.\(trace.events)events",
                configuration: MicroBenchmark.configuration(mallocTolerance: 30)
            ) { benchmark in
                for _ in benchmark.scaledIterations {
                    let reader = try TraceReader(path: trace.path, codec: .stored)
                    let sink = try FileSink(path: "/dev/null")
                    blackHole(try TraceExport.export(reader, file: trace.path, format: .perfetto, to: sink).summary)
                }
            }
        }
    }
}
