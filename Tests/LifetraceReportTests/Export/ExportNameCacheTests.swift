import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat
import LifetraceTestSupport
import LifetraceZstd
import Testing

@testable import LifetraceReport

/// The names an export makes from what events carry (custom markers' labels, tasks' names) are made once each,
/// numbered after the fixed vocabulary, up to the cache's bounds; past them a name is made per event, and the
/// export is the same bytes whatever the bounds.
@Suite struct ExportNameCacheTests {
    let directory = TemporaryDirectory()

    @Test func namesAreMadeOnceAndNumberedAfterTheFixedVocabulary() {
        var cache = ExportNameCache()
        var made = 0
        let first = cache.name(.custom, "save") {
            made += 1
            return "custom.save"
        }
        let again = cache.name(.custom, "save") {
            made += 1
            return "custom.save"
        }
        let task = cache.name(.taskBegin, nil) {
            made += 1
            return "background task"
        }
        let named = cache.name(.taskBegin, "") {
            made += 1
            return "background task "
        }
        #expect(made == 3)
        #expect((first.text, first.key) == ("custom.save", ExportName.keyCount))
        #expect((again.text, again.key) == ("custom.save", ExportName.keyCount))
        #expect((task.text, task.key) == ("background task", ExportName.keyCount + 1))
        // No name and an empty one are different names.
        #expect((named.text, named.key) == ("background task ", ExportName.keyCount + 2))
        #expect(cache.count == 3)
        #expect(cache.bytes == "save".utf8.count)
    }

    @Test func pastItsLimitANameIsMadeEachTimeAndNotNumbered() {
        var cache = ExportNameCache(limit: 2)
        _ = cache.name(.custom, "a") { "custom.a" }
        _ = cache.name(.custom, "b") { "custom.b" }
        for _ in 0..<3 {
            let name = cache.name(.custom, "c") { "custom.c" }
            #expect((name.text, name.key) == ("custom.c", -1))
        }
        #expect(cache.count == 2)
        #expect(cache.name(.custom, "b") { "unused" }.key == ExportName.keyCount + 1)
    }

    @Test func pastItsByteLimitANameIsMadeEachTimeAndNotNumbered() {
        var cache = ExportNameCache(byteLimit: 10)
        let six = String(repeating: "x", count: 6)
        let five = String(repeating: "y", count: 5)
        #expect(cache.name(.custom, six) { "custom." + six }.key == ExportName.keyCount)
        // 6 + 5 bytes is past 10.
        let past = cache.name(.custom, five) { "custom." + five }
        #expect((past.text, past.key) == ("custom." + five, -1))
        // 6 + 4 is not.
        #expect(cache.name(.custom, "four") { "custom.four" }.key == ExportName.keyCount + 1)
        #expect(cache.bytes == 10)
        #expect(cache.count == 2)
    }

    /// A trace of markers with 40 labels and tasks with 30 names, each seen many times, escaped characters among
    /// them.
    static var markersAndTasks: String {
        var lines = [
            #"{"lifetrace":1,"clock":"continuous","start_unix_ns":1763700000000000000,"app":"x"}"#,
            #"{"t":0,"ev":"process.launch","reason":"user","pid":7}"#,
        ]
        var t = 1000
        for i in 0..<600 {
            t += 1000
            lines.append(#"{"t":\#(t),"ev":"custom.mark \"\#(i % 40)\"é","attrs":{"k\#(i % 7)":\#(i)}}"#)
            t += 1000
            let kind = i % 2 == 0 ? "task" : "bg.refresh"
            let name = i % 3 == 0 ? "" : #","name":"job \#(i % 30)""#
            lines.append(#"{"t":\#(t),"ev":"\#(kind).begin","task":\#(i)\#(name)}"#)
            t += 500
            lines.append(#"{"t":\#(t),"ev":"\#(kind).end","task":\#(i)}"#)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The export of `path` as `format` by an exporter keeping names in `names`.
    func export(_ path: String, _ format: TraceExport.Format, names: ExportNameCache) throws -> [UInt8] {
        let sink = CollectingSink()
        let encoder: any ExportEncoder =
            format == .perfetto ? PerfettoEncoder(sink: sink) : ChromeJSONEncoder(sink: sink)
        let exporter = TraceExporter(
            file: path, header: try TraceReader(path: path).header, encoder: encoder, names: names)
        _ = try TraceAnalyzer.analyze(try TraceReader(path: path), file: path, observer: exporter)
        try exporter.finish()
        return sink.bytes
    }

    @Test(arguments: TraceExport.Format.allCases)
    func theExportIsTheSameWhateverTheCachesBounds(format: TraceExport.Format) throws {
        let path = directory.write("markers.jsonl", text: Self.markersAndTasks)
        // Limit 0 keeps nothing: every name made per event, as an export with no cache.
        let uncached = try export(path, format, names: ExportNameCache(limit: 0))
        #expect(!uncached.isEmpty)
        for names in [ExportNameCache(), ExportNameCache(limit: 25), ExportNameCache(byteLimit: 40)] {
            #expect(try export(path, format, names: names) == uncached)
        }
        let text = String(decoding: uncached, as: UTF8.self)
        if format == .chrome {
            #expect(text.contains(#""name":"custom.mark \"39\"é""#))
            #expect(text.contains(#""name":"background task job 28""#))
            #expect(text.contains(#""name":"bg.refresh job 1""#))
            #expect(text.contains(#""name":"background task""#))
        }
    }
}
