import Benchmark
import LifetraceAnalysis
import LifetraceFormat

/// The analyzer consuming a decoded block, as `lifetrace check` feeds it frame by frame.
enum AnalysisBenchmarks {
    static func register(_ traces: [SampleTrace]) {
        // A fresh analyzer per iteration (made, and its result taken, outside the measurement): the block's
        // events step the lifecycle models, the process, scene and task trackers and the rules. State grows
        // per process, scene and task the trace shows, not per event: today 40 above the empty measurement at
        // 1,000 events and 45 at 4,000 (more launches and tasks). An event that allocated would add 1,000 and
        // 4,000. 2 of tolerance for a table a different hash seed grows once more.
        for trace in traces {
            Benchmark(
                "TraceAnalyzer.consumeBlock.\(trace.events)events",
                configuration: MicroBenchmark.configuration(mallocTolerance: 2)
            ) { benchmark in
                let analyzer = TraceAnalyzer(file: trace.path, header: trace.header)
                benchmark.startMeasurement()
                analyzer.consume(trace.block)
                benchmark.stopMeasurement()
                blackHole(analyzer.finish())
            }
        }
    }
}
