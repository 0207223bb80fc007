import Foundation
import LifetraceAnalysis
import LifetraceCore
import LifetraceReport
import LifetraceTestSupport
import Testing

/// A service trace's time in `check`'s text and JSON: its services' starting, running and stopping, never an
/// app's active, background or suspended time. Durations worked out by hand.
@Suite struct ServiceTimeOutputTests {
    static let ms: Int64 = 1_000_000
    static let s: Int64 = 1_000_000_000

    /// http: started at 10 ms, ready at 15 ms, asked at 3600 s, stopped 0.2 s later; an hour's silence between.
    static func result() -> AnalysisResult {
        var header = TraceHeader(clock: .continuous, app: "api")
        header.lifecycle = .service
        let analyzer = TraceAnalyzer(
            file: "api.lifetrace", header: header, configuration: .defaults, models: LifecycleModel.builtIn)
        for event in [
            LifecycleEvent(t: 0, kind: .processLaunch, reason: "unknown"),
            LifecycleEvent(t: 10 * ms, kind: .serviceStart, scene: "http"),
            LifecycleEvent(t: 15 * ms, kind: .serviceReady, scene: "http"),
            LifecycleEvent(
                t: 3600 * s, kind: .serviceSignal, reason: "SIGTERM",
                attrs: [Attribute(Attribute.Key.action, .string("graceful-shutdown"))]),
            LifecycleEvent(t: 3600 * s, kind: .serviceShutdown, scene: "http", reason: "SIGTERM"),
            LifecycleEvent(t: 3600 * s + 200 * ms, kind: .serviceStopped, scene: "http"),
            LifecycleEvent(t: 3600 * s + 201 * ms, kind: .processExit, reason: "exit"),
        ] { analyzer.consume(event) }
        return analyzer.finish()
    }

    @Test func textSaysStartingRunningStoppingAndNothingOfAnApp() {
        let text = CheckOutput.render([Self.result()], format: .text)
        #expect(text.contains("  time: service http: starting 5.0ms, running 59m59s, stopping 200.0ms"), "\(text)")
        #expect(!text.contains("suspended") && !text.contains("background"))
    }

    @Test func jsonCarriesTheServiceTimesAndZeroAppTimes() throws {
        let text = CheckOutput.render([Self.result()], format: .json)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let result = try #require((object["results"] as? [[String: Any]])?.first)
        let expected: [String: Int64] = [
            "starting_ns": 5 * Self.ms, "running_ns": 3600 * Self.s - 15 * Self.ms,
            "stopping_ns": 200 * Self.ms,
        ]
        let totals = try #require(result["service_times"] as? [String: Any])
        #expect(totals.mapValues { ($0 as? NSNumber)?.int64Value } == expected.mapValues { $0 })
        let services = try #require(result["services"] as? [[String: Any]])
        #expect(services.count == 1 && services[0]["service"] as? String == "http")
        let times = try #require(result["times"] as? [String: Any])
        #expect(times.values.allSatisfy { ($0 as? NSNumber)?.int64Value == 0 })
        #expect(result["suspension_count"] as? Int == 0)
        // An app's trace: null and empty.
        let app = CheckOutput.render(
            [TraceAnalyzer(file: "a", header: nil, configuration: .defaults, models: LifecycleModel.builtIn).finish()],
            format: .json)
        let appResult = try #require(
            ((try JSONSerialization.jsonObject(with: Data(app.utf8)) as? [String: Any])?["results"] as? [[String: Any]])?
                .first)
        #expect(appResult["service_times"] is NSNull && (appResult["services"] as? [Any])?.isEmpty == true)
    }
}
