import LifetraceCore
import LifetraceFormat
import LifetraceSimulator
import LifetraceSummary
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// How well `compare`'s defaults separate a slower build from an unchanged one, measured on simulated UI-test
/// runs (the random scenario, 300 events each): one build's `scene.didEnterBackground` handlers made 30 %
/// slower must be caught, and a build that changed nothing must not fail. The rates are printed; docs/many-traces.md
/// quotes them.
@Suite(.integration) struct RegressionCalibrationTests {
    static let runsPerBuild = 40
    static let repetitions = 8

    /// The observations of `runsPerBuild` runs from `firstSeed`, the handler slowed by `factor` if given.
    static func build(firstSeed: UInt64, slowed factor: Double?, in directory: TemporaryDirectory) throws
        -> SummaryObservations
    {
        var summarizer = TraceSummarizer(codec: .zstd)
        var observations = SummaryObservations()
        for seed in firstSeed..<(firstSeed + UInt64(runsPerBuild)) {
            let simulator = Simulator(
                configuration: .init(
                    scenario: .random, seed: seed, minimumEvents: 300,
                    slowedHandlers: factor.map { [.sceneDidEnterBackground: $0] } ?? [:]))
            let path = directory.file("run-\(seed)-\(factor ?? 1).lifetrace")
            let writer = try makeEventWriter(path: path, header: simulator.header, jsonLines: false, options: .init())
            try simulator.run { try writer.append($0) }
            try writer.close()
            summarizer.summarize(path: path) { observations.add($0) }
        }
        observations.finish()
        return observations
    }

    @Test func aThirtyPercentSlowerHandlerIsCaughtAndNoChangeRarelyFails() throws {
        let directory = TemporaryDirectory()
        var caught = 0
        var falseAlarms = 0
        for repetition in 0..<UInt64(Self.repetitions) {
            let first = 1 + repetition * 1000
            let base = try Self.build(firstSeed: first, slowed: nil, in: directory)
            let same = try Self.build(firstSeed: first + 300, slowed: nil, in: directory)
            let slower = try Self.build(firstSeed: first + 600, slowed: 1.3, in: directory)
            if BuildComparison(base: base, new: same).hasRegression { falseAlarms += 1 }
            let comparison = BuildComparison(base: base, new: slower)
            let row = comparison.rows.first { $0.metric == ComparedMetric(.handler, "scene.didEnterBackground") }
            if row?.verdict == .regression { caught += 1 }
            // Only the slowed handler may be called a regression.
            #expect(
                comparison.rows.allSatisfy {
                    $0.verdict != .regression || !$0.gates || $0.metric.name == "scene.didEnterBackground"
                })
        }
        print(
            "compare calibration: \(Self.runsPerBuild) runs per build, \(Self.repetitions) comparisons each: "
                + "caught \(caught) of \(Self.repetitions) 30 % slower builds, \(falseAlarms) false alarms of \(Self.repetitions) unchanged"
        )
        #expect(caught * 10 >= Self.repetitions * 6, "caught \(caught) of \(Self.repetitions)")
        #expect(falseAlarms == 0, "\(falseAlarms) false alarms of \(Self.repetitions)")
    }
}
