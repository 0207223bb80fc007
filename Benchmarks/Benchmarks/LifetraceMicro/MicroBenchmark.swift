import Benchmark

/// What every benchmark of this suite measures, and how its allocation threshold is checked.
enum MicroBenchmark {
    /// Allocations (checked), then what is printed for reading: instructions (where the machine has hardware
    /// counters; a virtual machine often has none, and the row is then left out), wall time and throughput.
    static let metrics: [BenchmarkMetric] = [.mallocCountTotal, .instructions, .wallClock, .throughput]

    /// A configuration whose iterations may allocate `mallocTolerance` more than the count recorded in
    /// Thresholds/ (at the 90th percentile) before `thresholds check` calls it a regression. No other metric has
    /// a threshold, so nothing else can fail the check.
    static func configuration(mallocTolerance: Int) -> Benchmark.Configuration {
        .init(metrics: metrics, thresholds: [.mallocCountTotal: .init(absolute: [.p90: mallocTolerance])])
    }
}
