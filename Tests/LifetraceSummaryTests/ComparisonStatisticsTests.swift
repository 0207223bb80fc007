import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat
import LifetraceSummary
import LifetraceTestSupport
import Testing

/// The statistics `compare` rests on, against values worked out by hand and by SciPy.
@Suite struct ComparisonStatisticsTests {
    /// [1, 2, 3, 4]: the median sits at position 1.5 (2.5), the 90th at 2.7 (0.3 × 3 + 0.7 × 4 = 3.7), the 99th
    /// at 2.97 (3.97) — Spark SQL's `percentile`.
    @Test func percentilesInterpolateAsSparkDoes() throws {
        let distribution = Distribution([4, 1, 3, 2])
        #expect(distribution.count == 4)
        #expect(distribution.p50 == 2.5)
        #expect(abs(try #require(distribution.p90) - 3.7) < 1e-12)
        #expect(abs(try #require(distribution.p99) - 3.97) < 1e-12)
        #expect(Distribution([7]).p99 == 7)
        #expect(Distribution([]).p50 == nil)
    }

    /// scipy.stats.mannwhitneyu(new, base, alternative="greater", method="asymptotic", use_continuity=True).
    @Test(
        arguments: [
            ([1, 2, 3], [4, 5, 6], 9.0, 0.04042779918502612),
            ([10, 11, 12, 12, 14, 15, 18], [12, 15, 15, 20, 31, 40], 35.0, 0.025580886262511437),
        ] as [([Int64], [Int64], Double, Double)])
    func mannWhitneyAgreesWithSciPy(base: [Int64], new: [Int64], u: Double, p: Double) {
        let test = MannWhitneyU(base, new)
        #expect(test.u == u)
        #expect(abs(test.pGreater - p) < 1e-12)
        // The other way round, the same evidence points down.
        #expect(abs(MannWhitneyU(new, base).pLess - p) < 1e-12)
    }

    /// A handler row of `trace`: `handler` called with a mean of `mean`.
    static func handlerRow(_ trace: String, _ handler: String, mean: Int64) -> SummaryRow {
        var columns = HandlerColumns()
        (columns.handler, columns.mean) = (handler, mean)
        return SummaryRow(trace: trace, run: .init(), .handler(columns))
    }

    static func observations(
        _ values: [Int64], metric: ComparedMetric = ComparedMetric(.handler, "scene.didEnterBackground"),
        exits: [(String, Int)] = []
    ) -> SummaryObservations {
        var observations = SummaryObservations()
        for (number, value) in values.enumerated() {
            let trace = "t\(number)"
            observations.add(SummaryRow(trace: trace, run: .init(), .trace(TraceColumns())))
            observations.add(Self.handlerRow(trace, metric.name, mean: value))
        }
        for (end, count) in exits {
            for _ in 0..<count {
                var process = ProcessColumns()
                process.end = end
                observations.add(SummaryRow(trace: "p", run: .init(), .process(process)))
            }
        }
        observations.finish()
        return observations
    }

    @Test func aClearlySlowerHandlerIsARegressionAndAnEqualOneIsNot() throws {
        let base: [Int64] = [100, 104, 98, 101, 99, 103, 97, 102, 100, 96]
        let slower = base.map { $0 * 13 / 10 }
        let comparison = BuildComparison(base: Self.observations(base), new: Self.observations(slower))
        let row = try #require(comparison.rows.first)
        #expect(row.verdict == .regression && comparison.hasRegression)
        #expect(abs(try #require(row.change) - 0.3) < 0.01)
        #expect(!BuildComparison(base: Self.observations(base), new: Self.observations(base)).hasRegression)
        // Faster is an improvement, and does not fail.
        let faster = BuildComparison(base: Self.observations(slower), new: Self.observations(base))
        #expect(faster.rows.first?.verdict == .improvement && !faster.hasRegression)
    }

    @Test func aSignificantButSmallChangeIsNotARegression() {
        // 5 % slower, every run: significant, below the 10 % that counts.
        let base: [Int64] = (0..<30).map { 1000 + $0 }
        let comparison = BuildComparison(
            base: Self.observations(base), new: Self.observations(base.map { $0 * 105 / 100 }))
        #expect(comparison.rows.first?.verdict == .unchanged)
    }

    @Test func tooFewRunsGiveNoVerdict() {
        let comparison = BuildComparison(
            base: Self.observations([1, 2, 3, 4]), new: Self.observations([10, 20, 30, 40]))
        #expect(comparison.rows.first?.verdict == .insufficient && !comparison.hasRegression)
    }

    /// 2 of 100 processes killed before, 20 of 100 after: 18 points more, z = 4.18, a regression.
    @Test func moreKillsAreARegression() throws {
        let killed = ProcessEnd.killedWithBackgroundTask.rawValue
        let suspended = ProcessEnd.terminatedWhileSuspended.rawValue
        let comparison = BuildComparison(
            base: Self.observations([], exits: [(killed, 2), (suspended, 98)]),
            new: Self.observations([], exits: [(killed, 20), (suspended, 80)]))
        let row = try #require(comparison.rows.first { $0.metric == ComparedMetric(.exit, killed) })
        #expect(row.verdict == .regression && comparison.hasRegression)
        #expect(abs(try #require(row.change) - 0.18) < 1e-12)
        // Fewer processes ending suspended is the other side of the same change: reported, not gating.
        #expect(comparison.rows.first { $0.metric == ComparedMetric(.exit, suspended) }?.gates == false)
    }

    /// Holm: with several gating metrics, a p-value that passes alone but not against alpha / m is not a
    /// regression.
    @Test func manyMetricsAreHeldToHolmsCorrection() {
        // p = 0.0058 (SciPy) and a median 13 % higher: a regression alone.
        let base: [Int64] = [100, 101, 102, 103, 104, 105, 106, 125]
        let new: [Int64] = [104, 110, 114, 116, 118, 126, 127, 128]
        var single = BuildComparison(base: Self.observations(base), new: Self.observations(new))
        #expect(single.rows.first?.verdict == .regression)
        var baseObservations = Self.observations(base)
        var newObservations = Self.observations(new)
        // Nine more handlers that did not change: ten tests, so the first must pass 0.001.
        for other in 0..<9 {
            let metric = ComparedMetric(.handler, "custom.\(other)")
            baseObservations = merged(baseObservations, Self.observations(base, metric: metric))
            newObservations = merged(newObservations, Self.observations(base, metric: metric))
        }
        single = BuildComparison(base: baseObservations, new: newObservations)
        let row = single.rows.first { $0.metric.name == "scene.didEnterBackground" }
        #expect((row?.p ?? 1) > 0.001 && row?.verdict == .unchanged)
    }

    private func merged(_ a: SummaryObservations, _ b: SummaryObservations) -> SummaryObservations {
        var result = SummaryObservations()
        for observations in [a, b] {
            for (metric, values) in observations.values {
                for (number, value) in values.enumerated() {
                    let trace = "\(metric)-\(number)"
                    result.add(Self.handlerRow(trace, metric.name, mean: value))
                }
            }
        }
        result.finish()
        return result
    }

    /// lifetrace.json's `compare` member sets the thresholds, beside the budgets; a bad value is an error naming
    /// the setting.
    @Test func thresholdsComeFromTheConfiguration() throws {
        let directory = TemporaryDirectory()
        let good = directory.write(
            "lifetrace.json", text: #"{"budgets": {"launch": "3s"}, "compare": {"alpha": 0.05, "min_count": 10}}"#)
        let thresholds = try ComparisonThresholds.load(path: good)
        #expect(thresholds.alpha == 0.05 && thresholds.minimumCount == 10 && thresholds.minimumEffect == 0.10)
        let bad = directory.write("bad.json", text: #"{"compare": {"alpha": 2}}"#)
        #expect(throws: TraceError.self) { try ComparisonThresholds.load(path: bad) }
        do {
            _ = try ComparisonThresholds.load(path: bad)
        } catch {
            #expect(error.description == "\(bad): compare.alpha must be a number between 0 and 1")
        }
    }
}
