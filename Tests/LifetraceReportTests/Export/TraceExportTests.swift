import Foundation
import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat
import LifetraceReport
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// Both exports keep every event, nest every slice, and load as Perfetto's trace processor loads them
/// (`scripts/perfetto/check-export`, which decodes with Perfetto's own published schema).
@Suite(.integration) struct TraceExportTests {
    let directory = TemporaryDirectory()

    /// Exports `path` as `format` and loads the export with the checker.
    func exportAndLoad(_ path: String, _ format: TraceExport.Format) throws -> (
        summary: ExportSummary, loaded: [String: Any], file: String
    ) {
        let output = directory.file(URL(fileURLWithPath: path).lastPathComponent + "." + format.rawValue)
        let sink = try FileSink(path: output)
        let (summary, _) = try TraceExport.export(try TraceReader(path: path), file: path, format: format, to: sink)
        let count = try Self.events(path).count
        let result = try run(PackagePaths.path("scripts/perfetto/check-export"), [output, "--events", String(count)])
        #expect(result.status == 0, "\(result.stderr)")
        let loaded = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        return (summary, loaded, output)
    }

    static func events(_ path: String) throws -> [LifecycleEvent] {
        var events: [LifecycleEvent] = []
        try TraceReader(path: path).forEachEvent { events.append(copy $0) }
        return events
    }

    static let traces = PackagePaths.sampleTraces(extension: "lifetrace")

    @Test(arguments: traces, TraceExport.Format.allCases)
    func everyEventIsInTheExportAndItLoadsWithoutImportErrors(path: String, format: TraceExport.Format) throws {
        let (summary, loaded, _) = try exportAndLoad(path, format)
        let events = try Self.events(path)
        #expect(loaded["import_errors"] as? [String: Int] == [:], "\(loaded)")
        #expect(loaded["missing_event_count"] as? Int == 0, "\(loaded)")
        #expect(loaded["event_indexes"] as? Int == events.count)
        #expect(loaded["dur_mismatches"] as? Int == 0)
        #expect(loaded["unterminated_slices"] as? Int == 0)
        // A callback is one slice, whatever happened around it.
        let slices = try #require(loaded["slices"] as? [String: Int])
        let callbacks = Dictionary(
            grouping: events.filter { [.app, .scene, .swiftui].contains($0.kind.layer) }, by: \.eventName)
        for (name, occurrences) in callbacks { #expect(slices[name] == occurrences.count, "\(name)") }
        // A process track per process the analyzer saw.
        let result = try TraceAnalyzer.analyze(path: path, codec: .zstd)
        #expect(loaded["processes"] as? Int == result.processCount)
        #expect(summary.processes == result.processCount)
        #expect(summary.events == events.count)
        #expect(loaded["tracks"] as? Int == summary.tracks)
    }

    /// A trace written by hand, with what each export must say read off it.
    static let handWritten = """
        {"lifetrace":1,"app":"Demo","scene_manifest":true}
        {"t":0,"ev":"process.launch","reason":"user","pid":4312}
        {"t":1000,"ev":"app.didFinishLaunching","dur":500345}
        {"t":2000000,"ev":"scene.willConnect","scene":"S1","dur":1000}
        {"t":3000000,"ev":"scene.didBecomeActive","scene":"S1","dur":5000000}
        {"t":4000000,"ev":"scene.willResignActive","scene":"S1","dur":6000000}
        {"t":5000000,"ev":"task.begin","task":7,"name":"upload"}
        {"t":6000000,"ev":"task.begin","task":8}
        {"t":6500000,"ev":"task.expire","task":8}
        {"t":7000000,"ev":"task.end","task":7}
        {"t":11000000,"ev":"scene.didEnterBackground","scene":"S1","attrs":{"unfinished":true}}
        {"t":14000000,"ev":"handler.return","name":"scene.didEnterBackground","scene":"S1","dur":3000000}
        {"t":15000000,"ev":"task.end","task":99}
        {"t":16000000,"ev":"scene.willEnterForeground","scene":"S1","dur":1000}
        {"t":17000000,"ev":"scene.didBecomeActive","scene":"S1","dur":1000}
        {"t":18000000,"ev":"scene.willResignActive","scene":"S1","dur":1000}
        {"t":19000000,"ev":"scene.didEnterBackground","scene":"S1","attrs":{"unfinished":true}}
        {"t":21000000,"ev":"custom.mark"}

        """

    @Test func theChromeExportSaysWhatTheTraceSaysExactly() throws {
        let path = directory.write("hand.jsonl", text: Self.handWritten)
        let (summary, loaded, output) = try exportAndLoad(path, .chrome)
        #expect(loaded["import_errors"] as? [String: Int] == [:], "\(loaded)")
        #expect(summary.events == 17)
        let text = try String(contentsOfFile: output, encoding: .utf8)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let events = try #require(document["traceEvents"] as? [[String: Any]])
        func named(_ name: String) -> [[String: Any]] { events.filter { $0["name"] as? String == name } }
        func args(_ event: [String: Any]) -> [String: Any] { event["args"] as? [String: Any] ?? [:] }
        var threads: [Int: String] = [:]
        for event in named("thread_name") { threads[event["tid"] as! Int] = args(event)["name"] as? String }
        func thread(_ event: [String: Any]) -> String? { threads[event["tid"] as! Int] }

        // One process, numbered 1, named with the app and the system's pid.
        #expect(named("process_name").map { args($0)["name"] as? String } == ["Demo (pid 4312)"])
        #expect(named("process_labels").map { args($0)["labels"] as? String } == ["launch: user, pid 4312"])
        #expect(Set(events.compactMap { $0["pid"] as? Int }) == [1])
        // Microseconds from the first event, three digits of fraction, never rounded.
        #expect(
            text.contains(
                #""name":"app.didFinishLaunching","cat":"callback","ph":"X","pid":1,"tid":2,"ts":1.000,"dur":500.345"#))
        // willResignActive ends after didBecomeActive does without nesting in it: a second lane.
        let resign = named("scene.willResignActive")
        #expect(resign.map(thread) == ["scene S1 (2)", "scene S1"])
        #expect(named("scene.didBecomeActive").map(thread) == ["scene S1", "scene S1"])
        // Tasks: 7 from 5 ms to 7 ms, 8 on a lane of its own from 6 ms, open at the end (21 ms); its expiration
        // on it; an end whose begin is not in the trace, an instant.
        let begins = events.filter { $0["ph"] as? String == "B" && $0["cat"] as? String == "task" }
        #expect(begins.map { $0["name"] as? String } == ["background task upload", "background task"])
        #expect(begins.map(thread) == ["background tasks", "background tasks (2)"])
        let ends = events.filter { $0["ph"] as? String == "E" }
        let endsByThread = Dictionary(grouping: ends, by: { thread($0) ?? "" })
        #expect(endsByThread["background tasks"]?.map { $0["ts"] as? Double } == [7000])
        // Nothing shows the process ended: no second launch, no process.exit, and its events go on to the
        // trace's last (custom.mark, 21 ms). So it is alive at the trace's end, whatever it left open (task 8,
        // the handler of 19 ms, 2 ms before the end, within its 5 s): the trace ended, and the export says so.
        #expect(
            endsByThread["background tasks (2)"]?.map { args($0)["outcome"] as? String } == [
                "open when the trace ended"
            ])
        let end = try #require(try TraceAnalyzer.analyze(path: path, codec: .zstd).processes.first?.end)
        #expect(end == .traceEnded)
        #expect(named("process ended: trace-ended").count == 1)
        #expect(named("process ended: killed-with-background-task").isEmpty)
        #expect(
            text.contains(
                #""ph":"E","pid":1,"tid":\#(threads.first { $0.value == "background tasks (2)" }!.key),"ts":21000.000"#)
        )
        #expect(named("task.expire").map(thread) == ["background tasks (2)"])
        #expect(named("task.end").map { args($0)["begun"] as? String } == ["before the trace"])
        // The handler written unfinished ends where handler.return says (11 ms + 3 ms); the one that never
        // returned ends with the process, at the last event.
        let handlers = ends.filter { args($0)["returned"] != nil }
        #expect(handlers.map(thread) == ["scene S1", "scene S1"])
        // The event that ends a slice names its index `end_event_index`, so the one that began it keeps its own.
        #expect(text.contains(#""ts":14000.000,"args":{"end_event_index":10,"dur":3000000,"returned":true}"#))
        #expect(text.contains(#""ts":21000.000,"args":{"returned":false}"#))
        #expect(named("custom.mark").count == 1)
    }

    @Test func bothFormatsShowTheSameSlicesAndInstants() throws {
        let path = directory.write("hand.jsonl", text: Self.handWritten)
        let chrome = try exportAndLoad(path, .chrome).loaded
        let perfetto = try exportAndLoad(path, .perfetto).loaded
        #expect(perfetto["import_errors"] as? [String: Int] == [:], "\(perfetto)")
        #expect(perfetto["slices"] as? [String: Int] == chrome["slices"] as? [String: Int])
        #expect(perfetto["instants"] as? [String: Int] == chrome["instants"] as? [String: Int])
        #expect(perfetto["tracks"] as? Int == chrome["tracks"] as? Int)
        #expect(perfetto["missing_event_count"] as? Int == 0)
    }

    /// Every message and field of the schema lifetrace generates its Perfetto code from has Perfetto's own
    /// number and type.
    @Test func theProtoSchemaIsPerfettosOwn() throws {
        let result = try run(
            PackagePaths.path("scripts/perfetto/check-export"),
            ["--check-schema", PackagePaths.path("Schemas/perfetto/perfetto_trace.proto")])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("37 fields match Perfetto's schema"), "\(result.stdout)")
    }
}
