import Foundation
import LifetraceCore
import LifetraceFormat
import LifetraceReport
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// Both exports load in Perfetto's own trace processor — the WebAssembly build Perfetto UI v52 runs, driven under
/// node by `scripts/perfetto/trace-processor.mjs` — with no import error, every event of the trace, as many slices
/// of each callback as the trace has callbacks of it, and a process per process the trace launched. What each
/// export must hold is counted from the trace's events as the library reads them, not taken from the exporter.
///
/// The traces: every sample, a random walk of 100,000 events spanning 237 days (Chrome JSON's times past 26 days
/// are whole microseconds), and a random walk of 1,000,000 events in the protobuf format. The Chrome JSON of that
/// million (338 MB) is not loaded here: its load grows with the square of the trace (the trace processor scans
/// every process's thread of the same `tid` for each event), about 8.5 minutes of CPU, too long for the tier
/// (docs/testing.md). Each walk is written once for the whole suite (``RandomWalks``).
@Suite(.integration, RandomWalks.Scope()) struct TraceProcessorTests {
    let directory = TemporaryDirectory()

    /// What a trace holds, counted from its events.
    struct Contents {
        var events = 0
        /// Callbacks (app delegate, scene delegate, SwiftUI) by name: a slice each.
        var callbacks: [String: Int] = [:]
        /// `process.launch` events: a process each.
        var launches = 0
        /// The system pids the launches name.
        var launchedPids: Set<Int> = []
        init(_ path: String) throws {
            try TraceReader(path: path).forEachEvent { event in
                events += 1
                if [.app, .scene, .swiftui].contains(event.kind.layer) { callbacks[event.eventName, default: 0] += 1 }
                if event.kind == .processLaunch {
                    launches += 1
                    if let pid = event.pid { launchedPids.insert(Int(pid)) }
                }
            }
        }
    }

    static let queries = [
        "select count(*) from slice",
        // Every event's position in the trace is an argument of what shows it: JSON's `args`, the protobuf's
        // debug annotations; an event that ends a slice begun by another is its slice's `end_event_index` (the
        // trace processor merges an end's arguments into its slice's).
        "select distinct int_value from args where key in ('args.event_index', 'debug.event_index', "
            + "'args.end_event_index', 'debug.end_event_index')",
        "select name, count(*) from slice group by name",
        "select name from process where name like '% (pid %)'",
    ]

    /// Exports `path` as `format`, loads the export in the trace processor and checks it against the trace.
    func exportAndLoad(_ path: String, _ format: TraceExport.Format) throws {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let output = directory.file(name + "." + format.rawValue)
        let (summary, _) = try TraceExport.export(
            try TraceReader(path: path), file: path, format: format,
            to: try FileSink(path: output))
        let contents = try Contents(path)
        let loaded = try TraceProcessorLoad.load(output, queries: Self.queries)
        print(
            "trace processor: \(name) as \(format.rawValue), \(loaded.bytes) bytes, loaded in \(loaded.loadSeconds) s")
        #expect(loaded.version.hasPrefix("Perfetto v52."), "\(loaded.version)")
        #expect(loaded.importErrors.isEmpty, "\(name) (\(format)): \(loaded.importErrors)")
        let results = loaded.results
        // Nothing the exporter wrote was dropped (an instant is a slice of no duration).
        #expect(results[0].rows.first?.first?.integer == summary.slices + summary.instants, "\(name) (\(format))")
        // Every event is there: each index of 0 ..< events is an argument.
        let indexes = Set(results[1].rows.compactMap { $0.first?.integer })
        #expect(indexes.isSubset(of: 0..<contents.events), "\(name) (\(format))")
        let missing = Set(0..<contents.events).subtracting(indexes)
        #expect(missing.isEmpty, "\(name) (\(format)): events \(missing.sorted().prefix(20)) missing")
        // A slice per callback, by name.
        var slices: [String: Int] = [:]
        for row in results[2].rows { if let name = row[0].text, let count = row[1].integer { slices[name] = count } }
        for (callback, count) in contents.callbacks {
            #expect(slices[callback] == count, "\(name) (\(format)): \(callback)")
        }
        // A process per launch, named with the pid the launch gave.
        let processes = results[3].rows.compactMap { $0.first?.text }
        #expect(processes.count == contents.launches, "\(name) (\(format))")
        let pids = processes.compactMap { process in
            process.firstMatch(of: /\(pid (-?\d+)\)$/).flatMap { Int($0.1) }
        }
        #expect(Set(pids) == contents.launchedPids, "\(name) (\(format))")
    }

    /// The random walk `lifetrace simulate --scenario random --seed 42 --events N` writes, written once for the
    /// suite.
    func randomWalk(events: Int) async throws -> String {
        try await #require(RandomWalks.current, "the suite's walks").path(events: events)
    }

    @Test(arguments: PackagePaths.sampleTraces(extension: "lifetrace"), TraceExport.Format.allCases)
    func everySampleLoadsWithEveryEventAndNoImportError(path: String, format: TraceExport.Format) throws {
        try exportAndLoad(path, format)
    }

    /// 100,000 events over 237 days: Chrome JSON's slices still nest after the trace processor reads their times
    /// into doubles, so none is dropped as overlapping.
    @Test(arguments: TraceExport.Format.allCases)
    func aRandomWalkSpanningMonthsLoadsWithEveryEvent(format: TraceExport.Format) async throws {
        let path = try await randomWalk(events: 100_000)
        var first: Int64?
        var last: Int64 = 0
        try TraceReader(path: path).forEachEvent { event in
            first = first ?? event.t
            last = event.t
        }
        let days = Double(last - (first ?? 0)) / 86_400e9
        #expect(days > 90, "the walk spans \(days) days")
        try exportAndLoad(path, format)
    }

    /// `scripts/perfetto/check-export` reads Chrome JSON's times as exact decimals where the trace processor
    /// reads doubles, so it once saw none of the slices a long trace lost to rounding. On the long walk, both
    /// formats, it must find what the trace processor finds: the same import errors (none), the same processes,
    /// and as many slices and instants of each name.
    @Test(arguments: TraceExport.Format.allCases)
    func checkExportAgreesWithTheTraceProcessorOnATraceSpanningMonths(format: TraceExport.Format) async throws {
        let path = try await randomWalk(events: 100_000)
        let output = directory.file("walk." + format.rawValue)
        _ = try TraceExport.export(
            try TraceReader(path: path), file: path, format: format, to: try FileSink(path: output))
        let checked = try run(PackagePaths.path("scripts/perfetto/check-export"), [output])
        try #require(checked.status == 0, "\(checked.stderr)")
        let imported = try #require(try JSONSerialization.jsonObject(with: Data(checked.stdout.utf8)) as? [String: Any])
        let loaded = try TraceProcessorLoad.load(
            output,
            queries: [
                "select name, count(*) from slice group by name",
                "select count(*) from process where name like '% (pid %)'",
            ])
        #expect(loaded.importErrors.isEmpty, "\(loaded.importErrors)")
        #expect(imported["import_errors"] as? [String: Int] == [:], "\(imported["import_errors"] ?? "none")")
        // The trace processor keeps an instant as a slice of no duration: compare the two by name together.
        var byName: [String: Int] = [:]
        for key in ["slices", "instants"] {
            for (name, count) in try #require(imported[key] as? [String: Int]) { byName[name, default: 0] += count }
        }
        var processorByName: [String: Int] = [:]
        for row in loaded.results[0].rows {
            if let name = row[0].text, let count = row[1].integer { processorByName[name] = count }
        }
        #expect(byName == processorByName)
        #expect(imported["processes"] as? Int == loaded.results[1].rows.first?.first?.integer)
    }

    /// A million events in both formats. Chrome JSON's tids are unique across the export: were they numbered
    /// from 1 in each process, the trace processor's load would grow with the square of the trace.
    @Test(arguments: TraceExport.Format.allCases)
    func aMillionEventRandomWalkLoadsWithEveryEvent(format: TraceExport.Format) async throws {
        try exportAndLoad(try await randomWalk(events: 1_000_000), format)
    }
}
