import LifetraceAnalysis
import LifetraceChecking
import LifetraceCore
import LifetraceSimulator
import LifetraceTestSupport
import Testing

/// `check` finds in each simulated service scenario what its ground truth says, no more: with the default budgets
/// (Kubernetes' 30 s grace period), with systemd's 90 s `TimeoutStopSec` as the grace period, with ground truth and
/// without it. What a finding measures is worked out from the events themselves.
@Suite struct ServiceScenarioTests {
    static let s: Int64 = 1_000_000_000

    static func simulate(_ scenario: ServiceScenario, seed: UInt64, groundTruth: Bool = false, drainFactor: Double = 1)
        throws -> (header: TraceHeader, events: [LifecycleEvent])
    {
        let simulator = ServiceSimulator(
            configuration: .init(
                scenario: scenario, seed: seed, groundTruth: groundTruth,
                drainFactor: drainFactor))
        var events: [LifecycleEvent] = []
        try simulator.run { events.append($0) }
        return (simulator.header, events)
    }

    static func describe(_ result: AnalysisResult) -> String {
        "\(result.findings.map { "\($0.rule.id) #\($0.eventIndex): \($0.message)" })"
    }

    static func systemdGrace() throws -> AnalysisConfiguration {
        let directory = TemporaryDirectory()
        return try AnalysisConfiguration.load(
            path: directory.write("systemd.json", text: #"{"budgets": {"shutdownGrace": "90s"}}"#), for: nil)
    }

    @Test(arguments: ServiceScenario.allCases)
    func eachScenarioChecksAsItsGroundTruthSays(scenario: ServiceScenario) throws {
        for seed: UInt64 in 1...6 {
            for groundTruth in [false, true] {
                let (header, events) = try Self.simulate(scenario, seed: seed, groundTruth: groundTruth)
                let result = AnalysisHarness.analyze(events, header: header)
                #expect(
                    result.findings.map(\.rule.id.rawValue) == scenario.expectedRules,
                    "\(scenario) seed \(seed) ground truth \(groundTruth): \(Self.describe(result))")
                #expect(result.processCount == scenario.exitReasons.count)
                // The header carries the same ground truth, for a scorer that reads the trace alone.
                #expect(header[metadata: "expected_rules"] == .array(scenario.expectedRules.map { .string($0) }))
            }
        }
    }

    /// A slow drain is measured from its shutdown request to its stop, read off the events.
    @Test func aSlowDrainIsMeasuredFromItsRequestToItsStop() throws {
        for seed: UInt64 in 1...6 {
            let (header, events) = try Self.simulate(.slowDrain, seed: seed)
            let asked = try #require(events.first { $0.kind == .serviceShutdown && $0.scene == "worker" })
            let stopped = try #require(events.first { $0.kind == .serviceStopped && $0.scene == "worker" })
            let drain = stopped.t - asked.t
            #expect(drain > 35 * Self.s - 1 && drain <= 80 * Self.s)
            let finding = try #require(AnalysisHarness.analyze(events, header: header).findings.first)
            #expect(finding.measured == drain && finding.budget == 30 * Self.s && finding.scene == "worker")
            // Under systemd's 90 s the same drain is within its grace period.
            let systemd = AnalysisHarness.analyze(events, header: header, configuration: try Self.systemdGrace())
            #expect(systemd.findings.isEmpty, "seed \(seed): \(Self.describe(systemd))")
        }
    }

    /// Killed at systemd's 90 s: the process's last sign of life (a heartbeat, or ground truth's SIGKILL) is the
    /// kill, to within the one-second heartbeat; the drain measured to it is over 30 s, and under a 90 s grace
    /// period only the kill is reported.
    @Test func anOverrunKilledAtTheStopTimeoutIsMeasuredToTheKill() throws {
        for seed: UInt64 in 1...6 {
            for groundTruth in [false, true] {
                let (header, events) = try Self.simulate(.shutdownOverrun, seed: seed, groundTruth: groundTruth)
                let signal = try #require(events.first { $0.kind == .serviceSignal })
                let asked = try #require(events.first { $0.kind == .serviceShutdown && $0.scene == "worker" })
                let last = try #require(events.last)
                #expect(last.t <= signal.t + 90 * Self.s && last.t > signal.t + 89 * Self.s)
                if groundTruth {
                    #expect(last.kind == .processExit && last.reason == "SIGKILL" && last.t == signal.t + 90 * Self.s)
                } else {
                    // A heartbeat, or the worker's last drain marker after it.
                    #expect(last.kind == .heartbeat || (last.kind == .custom && last.scene == "worker"))
                }
                #expect(!events.contains { $0.kind == .serviceStopped && $0.scene == "worker" })
                let result = AnalysisHarness.analyze(events, header: header)
                let overrun = try #require(result.findings.first)
                #expect(overrun.measured == last.t - asked.t && overrun.budget == 30 * Self.s)
                #expect(result.findings.last?.measured == last.t - signal.t)
                let systemd = AnalysisHarness.analyze(events, header: header, configuration: try Self.systemdGrace())
                #expect(systemd.findings.map(\.rule.id) == ["LT093"], "\(Self.describe(systemd))")
            }
        }
    }

    /// A drain made three times as slow in a rolling deploy (up to 60 s) meets Kubernetes' kill at 30 s in some
    /// revisions: each such revision is a kill during its shutdown; those that finished in time are clean.
    @Test func aSlowerBuildsRollingDeployIsKilledWhereItsDrainPassesTheGracePeriod() throws {
        var kills = 0
        for seed: UInt64 in 1...6 {
            let (header, events) = try Self.simulate(.rollingDeploy, seed: seed, drainFactor: 3)
            let result = AnalysisHarness.analyze(events, header: header)
            let killed = result.findings.filter { $0.rule.id == "LT093" }.count
            let exits = events.filter { $0.kind == .processExit }.count
            // Every revision either exited (the library recorded it) or was killed, never both.
            #expect(killed + exits == 3, "seed \(seed): \(Self.describe(result))")
            kills += killed
        }
        #expect(kills > 0)
    }
}
