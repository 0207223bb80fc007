import LifetraceCore
import LifetraceFormat
import Testing

@testable import LifetraceAnalysis

/// Findings kept per rule, the rest counted exactly; context, ordinals and bounded strings.
@Suite struct FindingCollectorTests {
    static func block(_ count: Int) -> EventBlock {
        var block = EventBlock()
        for i in 0..<count { block.append(LifecycleEvent(t: Int64(i) * 10, kind: .heartbeat)) }
        return block
    }

    @Test func aRuleKeepsItsCapAndCountsTheRest() {
        var collector = FindingCollector(
            file: "f", configuration: .defaults, models: LifecycleModel.builtIn, family: .scene)
        let block = Self.block(300)
        for row in 0..<250 {
            collector.collect(
                [ModelEngine.Report(rule: .taskLeaked, message: "m", scene: nil)], index: row, t: 0, block: block,
                row: row, blockStart: 0)
        }
        collector.collect(
            [ModelEngine.Report(rule: .slowLaunch, message: "m", scene: nil)], index: 250, t: 0, block: block,
            row: 250, blockStart: 0)
        #expect(collector.findings.count == TraceAnalyzer.keptFindingsPerRule + 1)
        #expect(collector.omitted.map(\.rule.id) == [.taskLeaked])
        #expect(collector.omitted.first?.count == 250 - TraceAnalyzer.keptFindingsPerRule)
        // The same rule, scene and event: ordinals 0, 1, 2... in the baseline keys.
        #expect(collector.findings[0].baselineKey == "LT041 - heartbeat #0")
        #expect(collector.findings[99].baselineKey == "LT041 - heartbeat #99")
        // The event and the three before it.
        #expect(collector.findings[5].context.map(\.index) == [2, 3, 4, 5])
        #expect(collector.findings.last?.severity == .warning)
    }

    @Test func aDisabledRuleIsNotCollected() {
        var configuration = AnalysisConfiguration.defaults
        configuration.disabledRules = [.slowLaunch]
        var collector = FindingCollector(file: "f", configuration: configuration, models: [], family: .scene)
        collector.collect(
            [ModelEngine.Report(rule: .slowLaunch, message: "m", scene: nil)], index: 0, t: 0, block: Self.block(1),
            row: 0, blockStart: 0)
        #expect(collector.findings.isEmpty)
        #expect(collector.omitted.isEmpty)
    }
}
