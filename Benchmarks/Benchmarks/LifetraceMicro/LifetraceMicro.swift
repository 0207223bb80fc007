// Micro-benchmarks of the hot paths, with their allocation counts checked against Thresholds/ by
// `scripts/microbench` (package-benchmark's static thresholds: `swift package benchmark thresholds check`).
//
// Only `mallocCountTotal` is in the threshold files, so only allocations gate; wall time and throughput are
// printed for reading (these shared machines swing by ±40 % from run to run), instructions where the machine
// has hardware counters. A count is per iteration, and includes what package-benchmark's own measurement
// allocates: the first benchmark, an empty measurement, gives that zero point (16 with Swift 6.3.1 and
// package-benchmark 1.38.1), so "0 mallocs per event" reads as the empty measurement's count.

import Benchmark
import Foundation

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: MicroBenchmark.metrics, maxDuration: .seconds(1),
        maxIterations: 200)

    // The zero point of every count below: the harness's own allocations around a measurement.
    let exact = MicroBenchmark.configuration(mallocTolerance: 0)
    Benchmark("Harness.emptyMeasurement", configuration: exact) { benchmark in
        benchmark.startMeasurement()
        benchmark.stopMeasurement()
    }

    let traces: [SampleTrace]
    do {
        traces = try [1_000, 4_000].map { try SampleTrace(events: $0, in: SampleTrace.directory) }
    } catch {
        FileHandle.standardError.write(Data("LifetraceMicro: \(SampleTrace.directory.path): \(error)\n".utf8))
        exit(1)
    }
    atexit { try? FileManager.default.removeItem(at: SampleTrace.directory) }
    RecorderBenchmarks.register(in: SampleTrace.directory)
    FormatBenchmarks.register(traces)
    AnalysisBenchmarks.register(traces)
    ExportBenchmarks.register(traces)
}
