import Foundation
import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat
import LifetraceReport
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// The reports draw exactly what the analyzer computed and escape untrusted names.
@Suite struct ReportTests {
    static func analyze(_ path: String) throws -> ReportedTrace {
        try ReportedTrace.analyze(path: path, codec: .zstd)
    }

    static func sum(_ lanes: [Timeline.Lane], _ state: String) -> Int64 {
        lanes.flatMap(\.segments).filter { $0.state == state }.reduce(0) { $0 + $1.end - $1.start }
    }

    @Test(arguments: PackagePaths.sampleTraces(extension: "lifetrace"))
    func theDrawnIntervalsAreTheAnalyzersTimes(path: String) throws {
        let reported = try Self.analyze(path)
        let (result, timeline) = (reported.result, reported.timeline)
        let processes = timeline.lanes.filter(\.isProcess)
        #expect(Self.sum(processes, "active") == result.totals.active)
        #expect(Self.sum(processes, "inactive") == result.totals.inactive)
        #expect(Self.sum(processes, "background") == result.totals.background)
        // The lane draws a silent exit's process suspended until the next launch, as the analyzer saw it; the
        // total subtracts the estimated time it was gone.
        #expect(Self.sum(processes, "suspended") == result.totals.suspended + result.silentExits.notRunning)
        for scene in result.scenes {
            let lanes = timeline.lanes.filter {
                !$0.isProcess && ($0.name == "scene " + scene.scene || $0.name == scene.scene)
            }
            #expect(Self.sum(lanes, "active") == scene.times.active, "\(scene.scene)")
            #expect(Self.sum(lanes, "inactive") == scene.times.inactive, "\(scene.scene)")
            #expect(Self.sum(lanes, "background") == scene.times.background, "\(scene.scene)")
        }
        for lane in timeline.lanes {
            #expect(zip(lane.segments, lane.segments.dropFirst()).allSatisfy { $0.end <= $1.start }, "\(lane.name)")
        }
    }

    /// A trace fed event by event draws the timeline its file does, block by block.
    @Test func eventsFedOneByOneDrawTheTimelineOfTheirFile() throws {
        let path = PackagePaths.path("SampleTraces/sim-multi-window.uikit-scenes.lifetrace")
        let reader = try TraceReader(path: path)
        var events: [LifecycleEvent] = []
        while let event = try reader.next() { events.append(event) }
        let fed = ReportedTrace.analyze(events, file: path, header: reader.header)
        let read = try Self.analyze(path)
        #expect(fed.result.totals == read.result.totals)
        #expect(fed.timeline.lanes.map(\.name) == read.timeline.lanes.map(\.name))
        #expect(fed.timeline.lanes.map(\.segments) == read.timeline.lanes.map(\.segments))
        #expect(fed.timeline.lanes.count > 2 && fed.timeline.start == read.timeline.start)
        #expect(fed.timeline.end == read.timeline.end)
    }

    @Test func aLongTraceCoarsensButKeepsItsTotals() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("long.lifetrace")
        let simulator = Simulator(configuration: .init(scenario: .random, seed: 4, minimumEvents: 200_000))
        let writer = try BinaryTraceWriter(sink: try FileSink(path: path), header: simulator.header)
        try simulator.run { try writer.append($0) }
        try writer.close()
        let reported = try Self.analyze(path)
        let (result, timeline) = (reported.result, reported.timeline)
        let processes = timeline.lanes.filter(\.isProcess)
        #expect(processes.count == 1)
        #expect(
            timeline.lanes.allSatisfy {
                $0.segments.count <= 2 * Timeline.segmentLimit && $0.marks.count <= 2 * Timeline.segmentLimit
            })
        #expect(timeline.lanes.filter { !$0.isProcess }.count <= Timeline.sceneLaneLimit)
        #expect(processes[0].segments.contains { $0.aggregated })
        // Coarsening draws each merged pair in its dominant state across the pair's whole span: the drawn
        // time stays within a few per mille of the analyzer's.
        let drawn =
            Self.sum(processes, "active") + Self.sum(processes, "inactive") + Self.sum(processes, "background")
            + Self.sum(processes, "suspended")
        let total =
            result.totals.active + result.totals.inactive + result.totals.background + result.totals.suspended
            + result.silentExits.notRunning
        #expect(result.silentExits.notRunning > 0)
        #expect(abs(Double(drawn) / Double(total) - 1) < 0.005)
        let html = HTMLReport.render([reported])
        #expect(html.utf8.count < 8 << 20)
    }

    @Test func untrustedNamesAreEscapedEverywhere() throws {
        let directory = TemporaryDirectory()
        let evil = "<script>alert(\"x\")</script>' & </b>"
        let path = directory.write(
            "evil.jsonl",
            text: """
                {"lifetrace":1,"scene_manifest":true}
                {"t":0,"ev":"app.didFinishLaunching"}
                {"t":10,"ev":"scene.willConnect","scene":\(JSONValue.string(evil).jsonText)}
                {"t":20,"ev":"scene.didBecomeActive","scene":\(JSONValue.string(evil).jsonText)}
                {"t":30,"ev":"task.begin","task":1,"name":\(JSONValue.string(evil).jsonText)}
                {"t":40,"ev":"custom.\(evil.replacingOccurrences(of: "\"", with: "\\\""))"}

                """)
        let reported = try Self.analyze(path)
        #expect(!reported.result.findings.isEmpty)
        let html = HTMLReport.render([reported], title: evil)
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("</b>"))
        #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; &amp; &lt;/b&gt;"))
        #expect(html.contains("\\u003cscript\\u003ealert"))
        // The page has exactly the two script elements it brings, whatever the names.
        #expect(html.components(separatedBy: "<script").count - 1 == 2)
    }

    @Test func theTextTimelineFitsItsWidthAndHasNoColourUnlessAsked() throws {
        let result = try Self.analyze(PackagePaths.path("SampleTraces/sim-multi-window.uikit-scenes.lifetrace"))
        for width in [80, 120] {
            let text = TextTimeline.render([result], width: width)
            #expect(!text.contains("\u{1B}["))
            let lanes = text.split(separator: "\n").filter { $0.contains("│") }
            #expect(lanes.count == 3)
            #expect(lanes.allSatisfy { $0.count == width })
        }
        #expect(TextTimeline.render([result], width: 80, color: true).contains("\u{1B}[32m"))
    }

    /// Every line of the text report fits its width, but for one piece that has no space to break at (a path).
    @Test(arguments: [40, 57, 80])
    func theTextReportWrapsToItsWidth(width: Int) throws {
        let path = PackagePaths.path("SampleTraces/seed-cold-launch.lifetrace")
        let text = TextTimeline.render([try Self.analyze(path)], width: width)
        for line in text.split(separator: "\n") where line.count > width {
            #expect(!line.trimmingPrefix(" ").contains(" "), "\(line.count) columns: \(line)")
        }
        // Nothing is lost in the wrapping: but for the lanes' rows, the words are those of the report at its widest.
        func words(_ report: String) -> [Substring] {
            report.split(separator: "\n").filter { !$0.contains("│") }.flatMap { $0.split(separator: " ") }
        }
        let widest = TextTimeline.render([try Self.analyze(path)], width: 240)
        #expect(words(text) == words(widest))
        #expect(widest.split(separator: "\n").count < text.split(separator: "\n").count)
    }
}
