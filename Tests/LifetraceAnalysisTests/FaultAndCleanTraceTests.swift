import LifetraceAnalysis
import LifetraceCore
import LifetraceSimulator
import LifetraceTestSupport
import Testing

/// Every injected fault is found with its rule, and no clean scenario, style or seed has a finding.
@Suite struct FaultAndCleanTraceTests {
    /// The rule each fault must be found under (SampleTraces/README.md lists the same).
    static let expectedRule: [Fault: String] = [
        .saveInWillTerminateOnly: "LT080",
        .slowBackgroundHandler: "LT050",
        .leakedBackgroundTask: "LT042",
        .taskEndedTwice: "LT040",
        .backgroundWithoutResign: "LT003",
        .setupOnEveryForeground: "LT007",
        .appDelegateUIWithManifest: "LT020",
        .workWhileSuspended: "LT070",
        .disconnectInForeground: "LT005",
    ]

    static let faultCases: [(Fault, AppStyle)] = Fault.allCases.flatMap { fault in fault.styles.map { (fault, $0) } }

    @Test(arguments: faultCases)
    func everyInjectedFaultIsFoundWithItsRule(fault: Fault, style: AppStyle) throws {
        for seed: UInt64 in 1...3 {
            // Suspension is invisible to an app: work while suspended is only provable with ground truth.
            let withhold = fault != .workWhileSuspended
            let (_, result) = try AnalysisHarness.simulateAndAnalyze(
                .init(scenario: fault.showcase, style: style, seed: seed, groundTruth: true, faults: [fault]),
                withholdGroundTruth: withhold)
            let rules = Set(result.findings.map(\.rule.id.rawValue))
            #expect(
                rules == [Self.expectedRule[fault]!],
                "\(fault) \(style) seed \(seed): \(result.findings.map(\.message))")
        }
    }

    static let cleanCases: [(Scenario, AppStyle)] = Scenario.allCases.flatMap { scenario in
        AppStyle.allCases.map { (scenario, $0) }
    }

    @Test(arguments: cleanCases)
    func cleanScenariosHaveNoFindings(scenario: Scenario, style: AppStyle) throws {
        for seed: UInt64 in 1...4 {
            for groundTruth in [true, false] {
                let (_, result) = try AnalysisHarness.simulateAndAnalyze(
                    .init(
                        scenario: scenario, style: style, seed: seed, groundTruth: true,
                        heartbeatInterval: 1_000_000_000,
                        minimumEvents: scenario == .random ? 20_000 : nil),
                    withholdGroundTruth: !groundTruth)
                #expect(
                    result.findings.isEmpty,
                    "\(scenario) \(style) seed \(seed): \(result.findings.map { "\($0.rule.id) \($0.message)" })")
            }
        }
    }
}
