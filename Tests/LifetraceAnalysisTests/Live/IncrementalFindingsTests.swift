import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat
import LifetraceSimulator
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// The findings the analyzer tells as it collects them (`onFinding`) are `check`'s findings, in the same order,
/// each once — and each is told no later than the event that proves it is read (or at the end, for what the
/// end proves), so that a live check reports it then.
@Suite struct IncrementalFindingsTests {
    /// What the analyzer told, and how many events had been fed before the one being read when it told each
    /// (`nil`: during `finish`).
    struct Told {
        var findings: [Finding] = []
        var eventsFed: [Int?] = []
    }

    /// Feeds `events` one at a time, as a live check does, recording each finding as it is told.
    static func incremental(_ events: [LifecycleEvent], header: TraceHeader?, file: String) -> (
        told: Told, result: AnalysisResult
    ) {
        let analyzer = TraceAnalyzer(file: file, header: header)
        nonisolated(unsafe) var told = Told()
        nonisolated(unsafe) var fed: Int? = 0
        analyzer.onFinding = { finding in
            told.findings.append(finding)
            told.eventsFed.append(fed)
        }
        for event in events {
            analyzer.consume(event)
            fed! += 1
        }
        fed = nil
        let result = analyzer.finish()
        return (told, result)
    }

    /// Each finding told while events were fed was told as its own event was read: the events fed before it
    /// number the finding's event index.
    static func expectToldAtItsEvent(_ told: Told, _ comment: Comment) {
        for (finding, fed) in zip(told.findings, told.eventsFed) {
            if let fed { #expect(fed == finding.eventIndex, comment) }
        }
    }

    @Test(arguments: PackagePaths.sampleTraces(extension: "lifetrace"))
    func incrementalFindingsAreCheckFindingsOnEverySample(path: String) throws {
        let checked = try TraceAnalyzer.analyze(path: path, codec: .zstd)
        let reader = try TraceReader(path: path, codec: .zstd)
        var events: [LifecycleEvent] = []
        while let event = try reader.next() { events.append(event) }
        let (told, result) = Self.incremental(events, header: reader.header, file: path)
        #expect(told.findings == checked.findings, "\(path)")
        #expect(result.findings == checked.findings, "\(path)")
        Self.expectToldAtItsEvent(told, "\(path)")
    }

    /// At least one sample has findings told as their events are read, and one told at the end: the property
    /// above is not met by telling everything at `finish`.
    @Test func samplesTellFindingsAtTheirEventsAndAtTheEnd() throws {
        var atEvents = 0
        for path in PackagePaths.sampleTraces(extension: "lifetrace") {
            let reader = try TraceReader(path: path, codec: .zstd)
            var events: [LifecycleEvent] = []
            while let event = try reader.next() { events.append(event) }
            atEvents +=
                Self.incremental(events, header: reader.header, file: path).told.eventsFed.filter { $0 != nil }.count
        }
        #expect(atEvents > 0)
    }

    @Test(arguments: 0..<24)
    func incrementalFindingsAreCheckFindingsOnRandomWalks(seed: Int) {
        var rng = SplitMix64(seed: UInt64(4800 + seed))
        let header = RandomTrace.header(using: &rng)
        let events = RandomTrace.events(count: 400, using: &rng)
        let checked = AnalysisHarness.analyze(events, header: header)
        let (told, result) = Self.incremental(events, header: header, file: "test.jsonl")
        #expect(told.findings == checked.findings)
        #expect(result.findings == checked.findings)
        Self.expectToldAtItsEvent(told, "seed \(seed)")
    }

    /// The random walks above have findings to compare, told as their events are read.
    @Test func randomWalksHaveFindingsToldAtTheirEvents() {
        var toldAtEvents = 0
        for seed in 0..<24 {
            var rng = SplitMix64(seed: UInt64(4800 + seed))
            let header = RandomTrace.header(using: &rng)
            let events = RandomTrace.events(count: 400, using: &rng)
            toldAtEvents +=
                Self.incremental(events, header: header, file: "test.jsonl").told.eventsFed.filter { $0 != nil }.count
        }
        #expect(toldAtEvents > 24)
    }

    @Test(arguments: FaultAndCleanTraceTests.faultCases)
    func incrementalFindingsAreCheckFindingsOnSimulatedFaults(fault: Fault, style: AppStyle) throws {
        let simulator = Simulator(
            configuration: .init(
                scenario: fault.showcase, style: style, seed: 11, groundTruth: true,
                faults: [fault]))
        var events: [LifecycleEvent] = []
        try simulator.run { events.append($0) }
        let checked = AnalysisHarness.analyze(events, header: simulator.header)
        let (told, _) = Self.incremental(events, header: simulator.header, file: "test.jsonl")
        #expect(!told.findings.isEmpty)
        #expect(told.findings == checked.findings)
        Self.expectToldAtItsEvent(told, "\(fault)")
    }
}
