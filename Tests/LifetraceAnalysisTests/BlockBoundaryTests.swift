import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat
import LifetraceSimulator
import Testing

/// The analyzer reads blocks of events; where the blocks begin and end must not change what it finds,
/// the context a finding shows, or the times it measures.
@Suite struct BlockBoundaryTests {
    static func analyze(_ events: [LifecycleEvent], header: TraceHeader, blockSize: Int) -> AnalysisResult {
        let analyzer = TraceAnalyzer(file: "test.jsonl", header: header)
        var block = EventBlock()
        for start in stride(from: 0, to: events.count, by: blockSize) {
            block.removeAll()
            for event in events[start..<min(start + blockSize, events.count)] { block.append(event) }
            analyzer.consume(block)
        }
        return analyzer.finish()
    }

    @Test(arguments: FaultAndCleanTraceTests.faultCases)
    func findingsDoNotDependOnBlockBoundaries(fault: Fault, style: AppStyle) throws {
        let simulator = Simulator(
            configuration: .init(
                scenario: fault.showcase, style: style, seed: 7, groundTruth: true,
                faults: [fault]))
        var events: [LifecycleEvent] = []
        try simulator.run { events.append($0) }
        let oneByOne = AnalysisHarness.analyze(events, header: simulator.header)
        #expect(!oneByOne.findings.isEmpty, "the fault is found at all")
        for blockSize in [2, 3, 5, 1000] {
            let blocked = Self.analyze(events, header: simulator.header, blockSize: blockSize)
            #expect(blocked.findings == oneByOne.findings, "blocks of \(blockSize)")
            #expect(blocked.findings.allSatisfy { $0.context.count == min(4, $0.eventIndex + 1) })
            #expect(blocked.findings.allSatisfy { $0.context.last?.index == $0.eventIndex })
            #expect(blocked.totals == oneByOne.totals && blocked.processes == oneByOne.processes)
            #expect(blocked.suspensions == oneByOne.suspensions && blocked.eventCount == events.count)
        }
    }
}
