import Foundation
import LifetraceAnalysis
import LifetraceReport
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// A service process's report draws each service as a lane, as scenes are drawn: starting from its start to its
/// readiness, running until its shutdown request, stopping until its stop (or its process's end, when it was
/// killed mid-drain). The segments' bounds are the events' times, read off the trace below.
@Suite struct ServiceLaneTests {
    static let ms: Int64 = 1_000_000
    static let s: Int64 = 1_000_000_000

    /// Two processes: a graceful shutdown (worker, then http), then a worker killed while starting, its last sign
    /// of life a heartbeat at 25 s.
    static let trace = """
        {"lifetrace":1,"clock":"continuous","app":"svc","lifecycle":"service"}
        {"t":0,"ev":"process.launch","reason":"unknown"}
        {"t":10000000,"ev":"service.start","scene":"http"}
        {"t":11000000,"ev":"service.start","scene":"worker"}
        {"t":20000000,"ev":"service.ready","scene":"http"}
        {"t":1000000000,"ev":"service.ready","scene":"worker"}
        {"t":10000000000,"ev":"service.signal","reason":"SIGTERM"}
        {"t":10001000000,"ev":"service.shutdown","scene":"worker","reason":"SIGTERM"}
        {"t":13000000000,"ev":"service.stopped","scene":"worker"}
        {"t":13001000000,"ev":"service.shutdown","scene":"http","reason":"SIGTERM"}
        {"t":13500000000,"ev":"service.stopped","scene":"http"}
        {"t":13600000000,"ev":"process.exit","reason":"exit"}
        {"t":20000000000,"ev":"process.launch","reason":"unknown"}
        {"t":20010000000,"ev":"service.start","scene":"worker"}
        {"t":25000000000,"ev":"heartbeat"}

        """

    static func analyze() throws -> ReportedTrace {
        let directory = TemporaryDirectory()
        return try ReportedTrace.analyze(path: directory.write("service.jsonl", text: trace))
    }

    static func segments(_ lane: Timeline.Lane) -> [String] {
        lane.segments.map { "\($0.state) \($0.start) \($0.end)" }
    }

    @Test func eachServiceIsALaneOfItsLifecycle() throws {
        let timeline = try Self.analyze().timeline
        let http = try #require(timeline.lanes.first { $0.name == "service http" })
        let worker = try #require(timeline.lanes.first { $0.name == "service worker" })
        #expect(http.isService && !http.isProcess && worker.isService)
        #expect(
            Self.segments(http) == [
                "starting \(10 * Self.ms) \(20 * Self.ms)", "running \(20 * Self.ms) \(13_001 * Self.ms)",
                "stopping \(13_001 * Self.ms) \(13_500 * Self.ms)",
            ])
        #expect(
            Self.segments(worker) == [
                "starting \(11 * Self.ms) \(1 * Self.s)", "running \(1 * Self.s) \(10_001 * Self.ms)",
                "stopping \(10_001 * Self.ms) \(13 * Self.s)",
                "starting \(20_010 * Self.ms) \(25 * Self.s)",
            ])
        // The service's events are marks on its lane; the signal is the process's.
        #expect(
            worker.marks.map(\.name) == [
                "service.start", "service.ready", "service.shutdown", "service.stopped", "service.start",
            ])
        #expect(timeline.lanes.first(where: \.isProcess)?.marks.contains { $0.name == "service.signal" } == true)
        #expect(!timeline.lanes.contains { $0.name.hasPrefix("scene ") })
    }

    @Test func theTextAndHTMLReportsDrawServiceLanes() throws {
        let result = try Self.analyze()
        let text = TextTimeline.render([result], width: 80)
        let lanes = text.split(separator: "\n").filter { $0.contains("│") }
        #expect(
            lanes.map { $0.prefix(16).trimmingCharacters(in: .whitespaces) } == [
                "process", "service http", "service worker",
            ])
        #expect(text.contains("services: ▂ starting ■ running ▚ stopping"))
        // 13.5 s of the 25 s: the http lane runs over about half its columns, then stays empty.
        let http = lanes[1].split(separator: "│")[1]
        #expect(http.filter { $0 == "■" }.count >= 30 && http.hasSuffix(String(repeating: " ", count: 20)))
        let html = HTMLReport.render([result])
        #expect(html.contains("services: <span class=\"sw s4\"></span>starting"))
        #expect(html.contains("\"name\":\"service worker\",\"process\":false,\"service\":true"))
        // Its summary is its services' time (starting 10 ms + 989 ms + 4.99 s, running 12.981 s + 9.001 s, stopping
        // 2.999 s + 0.5 s), not an app's states.
        let summary = try #require(
            html.range(of: "\"service_times\":{").map { String(html[$0.lowerBound...].prefix(90)) })
        #expect(summary.hasPrefix("\"service_times\":{\"starting\":5989"), "\(summary)")
        // An app's report has no service legend.
        let app = try ReportedTrace.analyze(
            path: PackagePaths.path("SampleTraces/sim-multi-window.uikit-scenes.lifetrace"), codec: .zstd)
        #expect(!HTMLReport.render([app]).contains("services:") && !TextTimeline.render([app]).contains("services:"))
        #expect(HTMLReport.render([app]).contains("\"service_times\":null"))
    }
}
