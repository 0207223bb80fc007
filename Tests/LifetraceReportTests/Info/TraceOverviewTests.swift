import Foundation
import LifetraceCore
import LifetraceFormat
import LifetraceReport
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// What `lifetrace info` gathers and prints, in process. The expected values are read off the sample's JSON Lines
/// (`SampleTraces/seed-phone-call.jsonl`: a header and eight events of seven kinds in scene "main", from t=0 to
/// t=97.35 s) and the files' sizes.
@Suite struct TraceOverviewTests {
    let directory = TemporaryDirectory()
    static let binary = PackagePaths.path("SampleTraces/seed-phone-call.lifetrace")
    static let jsonLines = PackagePaths.path("SampleTraces/seed-phone-call.jsonl")

    static func overview(_ path: String, threads: Int = 1) throws -> TraceOverview {
        try TraceOverview(path: path, reader: try TraceReader(path: path), decodingThreads: threads)
    }

    static func size(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }

    @Test(arguments: [binary, jsonLines], [1, 3])
    func countsEveryEventByKindAndTheScenes(path: String, threads: Int) throws {
        let overview = try Self.overview(path, threads: threads)
        #expect(overview.statistics.events == 8)
        #expect(
            overview.kinds == [
                .processLaunch: 1, .appDidFinishLaunching: 1, .sceneWillConnect: 1, .sceneWillEnterForeground: 1,
                .sceneDidBecomeActive: 2, .sceneWillResignActive: 1, .custom: 1,
            ])
        #expect(overview.scenes == ["main"])
        #expect(overview.span == 97_350_000_000)
        #expect(overview.damage == "none")
        #expect(overview.statistics.bytes == (try Self.size(path)))
    }

    @Test func textOfAJSONLinesTrace() throws {
        let lines = try Self.overview(Self.jsonLines).text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 9)
        #expect(lines[0] == Substring(Self.jsonLines))
        #expect(lines[1] == "  format:      JSON Lines (9 lines)")
        #expect(
            lines[2].hasPrefix(
                "  header:      app=com.example.video clock=continuous scene_manifest=true source=hand-written"))
        #expect(lines[3] == "  events:      8 in 1 scene")
        #expect(lines[4] == "  time span:   0.000000s to 97.350000s (1m37s)")
        #expect(lines[5].hasPrefix("  kinds:       scene.didBecomeActive 2, "))
        #expect(lines[5].hasSuffix(", ... (7 kinds)"))
        let size = try Self.size(Self.jsonLines)
        #expect(lines[6] == "  bytes:       \(size) (\(String(format: "%.2f", Double(size) / 8)) bytes/event)")
        #expect(lines[7] == "  damage:      none")
        #expect(lines[8].isEmpty)
    }

    @Test func textOfABinaryTraceSaysItsFramesAndIndex() throws {
        let text = try Self.overview(Self.binary).text
        #expect(text.contains("\n  format:      .lifetrace 1."))
        #expect(text.contains("\n  frames:      1 data, index present\n"))
    }

    @Test func jsonOfEachFormat() throws {
        guard case let .object(binary) = try Self.overview(Self.binary).jsonValue,
            case let .object(jsonLines) = try Self.overview(Self.jsonLines).jsonValue
        else {
            Issue.record("not an object")
            return
        }
        #expect(
            binary.map(\.key) == [
                "file", "format", "header", "events", "first_t", "last_t", "bytes", "kinds", "scenes",
                "truncated", "data_frames", "index_present", "index_consistent", "format_version",
                "warnings",
            ])
        #expect(
            jsonLines.map(\.key) == [
                "file", "format", "header", "events", "first_t", "last_t", "bytes", "kinds",
                "scenes", "truncated", "lines", "warnings",
            ])
        let members = Dictionary(uniqueKeysWithValues: jsonLines.map { ($0.key, $0.value) })
        #expect(members["events"] == .int(8))
        #expect(members["first_t"] == .int(0))
        #expect(members["last_t"] == .int(97_350_000_000))
        #expect(members["lines"] == .int(9))
        #expect(members["scenes"] == .int(1))
        #expect(members["truncated"] == .bool(false))
    }

    /// A header with no event is a trace, described as one (an input with neither is refused by the reader).
    @Test func aTraceWithAHeaderAndNoEvents() throws {
        let headerOnly = directory.write("header-only.jsonl", text: #"{"lifetrace":1}"# + "\n")
        let overview = try Self.overview(headerOnly)
        #expect(overview.span == nil)
        #expect(
            overview.text == """
                \(headerOnly)
                  format:      JSON Lines (1 line)
                  header:      (version only)
                  events:      0
                  bytes:       16
                  damage:      none

                """)
    }

    /// Names from the input are escaped: an ESC in the app's name can not reach the terminal.
    @Test func controlCharactersFromTheInputAreEscaped() throws {
        let path = directory.write(
            "escape.jsonl", text: "{\"lifetrace\":1,\"app\":\"a\\u001b[2Jb\"}\n{\"t\":0,\"ev\":\"heartbeat\"}\n")
        let text = try Self.overview(path).text
        #expect(!text.unicodeScalars.contains("\u{1B}"))
        #expect(text.contains("  header:      app=a\\u{1B}[2Jb\n"))
    }

    /// Scene names equal as Swift strings are one scene, as a `Set<String>` counts them: "K" and the Kelvin sign
    /// (U+212A), "é" precomposed and decomposed; "plain" named twice. Three scenes, in both formats, by hand.
    @Test(arguments: [1, 2])
    func scenesEqualAsStringsAreOneScene(threads: Int) throws {
        let names = ["K", "\u{212A}", "\u{E9}", "e\u{301}", "plain", "plain"]
        let events = names.enumerated().map {
            LifecycleEvent(t: Int64($0.offset), kind: .sceneWillConnect, scene: $0.element)
        }
        let binary = directory.file("scenes.lifetrace")
        let writer = try BinaryTraceWriter(
            sink: try FileSink(path: binary), header: nil,
            options: .init(codec: .zstd, targetFrameBytes: 16))
        for event in events { try writer.append(event) }
        try writer.close()
        let jsonLines = directory.write(
            "scenes.jsonl", text: events.map { JSONLinesEncoder.line($0) }.joined(separator: "\n") + "\n")
        for path in [binary, jsonLines] {
            let overview = try Self.overview(path, threads: threads)
            #expect(overview.sceneCount == 3, "\(path)")
            #expect(overview.scenes.count == 3 && overview.scenes.contains("plain"))
            #expect(overview.kinds == [.sceneWillConnect: 6])
            #expect(overview.text.contains("  events:      6 in 3 scenes\n"))
        }
    }
}
