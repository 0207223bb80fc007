import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat
import LifetraceSimulator
import LifetraceTestSupport

/// Runs the analyzer over events in memory, as `lifetrace check` runs it over a file.
enum AnalysisHarness {
    static func analyze(
        _ events: [LifecycleEvent], header: TraceHeader? = TraceHeader(sceneManifest: true),
        configuration: AnalysisConfiguration = .defaults,
        models: [LifecycleModel] = LifecycleModel.builtIn
    ) -> AnalysisResult {
        let analyzer = TraceAnalyzer(file: "test.jsonl", header: header, configuration: configuration, models: models)
        for event in events { analyzer.consume(event) }
        return analyzer.finish()
    }

    /// Simulates, then analyzes; with `withholdGroundTruth` the analyzer sees what a real app records.
    static func simulateAndAnalyze(_ configuration: Simulator.Configuration, withholdGroundTruth: Bool = false)
        throws -> (events: [LifecycleEvent], result: AnalysisResult)
    {
        let simulator = Simulator(configuration: configuration)
        var events: [LifecycleEvent] = []
        try simulator.run { events.append($0) }
        var header = simulator.header
        var seen = events
        if withholdGroundTruth {
            header[.groundTruth] = .bool(false)
            seen = events.filter { ![.processSuspend, .processResume, .processExit].contains($0.kind) }
        }
        return (events, analyze(seen, header: header))
    }

    /// Parses JSON Lines text into events (the header line, if any, first).
    static func parse(_ text: String) throws -> (TraceHeader?, [LifecycleEvent]) {
        var decoder = JSONLinesLineDecoder(file: "test.jsonl")
        var header: TraceHeader?
        var events: [LifecycleEvent] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            switch try decoder.decode(String(line)) {
            case let .header(value): header = value
            case let .event(event): events.append(event)
            case .blank: break
            }
        }
        return (header, events)
    }
}
