public import LifetraceCore

/// Turns a unified-log capture (`log stream`, `log show`, Console copies, idevicesyslog, Xcode's console) into
/// lifecycle events for one app.
///
/// Feed it the capture's lines in order; it detects the format, joins continuation lines, and derives events
/// as `Schemas/oslog-mapping.md` documents. Memory is bounded: one entry in progress, a few counters, and
/// the entries held back while redacted task numbers are unknown (at most `TaskNumbering.limit`).
///
/// ```swift
/// var importer = LogImporter(selection: AppSelection(process: "MyApp", bundleID: "com.example.MyApp"))
/// for (number, line) in lines.enumerated() { try importer.feed(line[...], number: number + 1) { write($0) } }
/// try importer.finish { write($0) }
/// ```
public struct LogImporter: Sendable {
    private var parser: LogLineParser
    private var deriver: LifecycleDeriver
    private var tally = ProcessTally()
    /// Xcode's console, pasted run by run in any order, is put back in time order (``EntryReorder``).
    private var reorder = EntryReorder()
    /// Whether entries still pass through ``reorder``: until a window's worth came in order.
    private var reordering = true
    /// Whether a line has been fed: the first may begin with a byte-order mark.
    private var started = false
    /// Events derived so far.
    public private(set) var events = 0
    /// Whether the header is settled: the app's first UI event (an `app.*` event) has been derived, and with it
    /// where the app's UI events come from (its prints, AppKit) — what the header says. A writer that can wait
    /// holds the events before it (``headerHoldLimit`` at most), so that the header it writes says it.
    public private(set) var headerSettled = false
    /// The most events a writer holds back while the header is not settled.
    public static let headerHoldLimit = 4096
    /// The first entry whose month and day are no date of the year taken for it (a capture that prints no year):
    /// every time read from there would be wrong, so the import stops there. Stored, not computed: it is looked
    /// at after every line.
    public private(set) var impossibleDate: ImpossibleDate?
    /// The first entry whose time no trace holds (a date outside 1678 to 2262, or more than 292 years from
    /// another entry's): the import stops there. Stored, as ``impossibleDate`` is.
    public private(set) var outOfRange: DateOutOfRange?

    /// Creates an importer for the selected app; `assumptions` say what to take for the year and the zone a
    /// capture does not print. A `live` capture (a stream read as it is produced) is derived entry by entry: no
    /// entry waits to be put in time order (``EntryReorder``).
    public init(selection: AppSelection, assumptions: TimeAssumptions = TimeAssumptions(), live: Bool = false) {
        parser = LogLineParser(assumptions: assumptions)
        deriver = LifecycleDeriver(selection: selection)
        reordering = !live
    }

    /// Feeds one physical line (without its newline); calls `emit` with each event it completes.
    public mutating func feed(_ line: Substring, number: Int, _ emit: (LifecycleEvent) throws -> Void) rethrows {
        // Captures saved on Windows end their lines with CR LF, and editors there may begin the file with a
        // byte-order mark; captures saved from a terminal may hold its colours.
        var line = line.utf8.last == UInt8(ascii: "\r") ? line.dropLast() : line
        if !started {
            started = true
            if line.hasPrefix("\u{FEFF}") { line = line.dropFirst() }
        }
        line = TerminalEscapes.removed(from: line)
        if let entry = parser.feed(line, number: number) { try take(entry, emit) }
        if impossibleDate == nil, let date = parser.impossibleDate { impossibleDate = date }
        if outOfRange == nil, let date = parser.outOfRange { outOfRange = date }
    }

    /// Ends the capture: derives the events of its last entry, and of any held back (``TaskNumbering``).
    public mutating func finish(_ emit: (LifecycleEvent) throws -> Void) rethrows {
        if let entry = parser.finish() { try take(entry, emit) }
        while let entry = reorder.pop() { try consume(entry, emit) }
        var count = 0
        try deriver.finish { event in
            count += 1
            try emit(event)
        }
        events += count
    }

    /// Passes `entry` on to be derived; Xcode's console through the window that puts it in time order.
    private mutating func take(_ entry: LogLine, _ emit: (LifecycleEvent) throws -> Void) rethrows {
        guard parser.format == .xcode, reordering else { return try consume(entry, emit) }
        if let earliest = reorder.push(entry) { try consume(earliest, emit) }
        if reorder.inOrder {
            // A window's worth in order: the capture is no paste of runs out of order; what is held goes on.
            reordering = false
            while let held = reorder.pop() { try consume(held, emit) }
        }
    }

    private mutating func consume(_ entry: LogLine, _ emit: (LifecycleEvent) throws -> Void) rethrows {
        // Until the app yields an event, which processes the capture holds: what a refusal lists.
        if events == 0 { tally.add(entry.process) }
        var count = 0
        try deriver.consume(entry) { event in
            count += 1
            if !headerSettled, event.kind.layer == .app { headerSettled = true }
            try emit(event)
        }
        events += count
    }

    /// The capture's format, once detected.
    public var format: LogFormat? { parser.format }

    /// Entries read.
    public var entries: Int { deriver.entries }

    /// Lines with text that is no log entry (prose around a pasted capture, header lines, fragments), and
    /// lines whose entry came after other text: what was skipped. Blank lines and Markdown fences are not
    /// counted.
    public var skipped: (lines: Int, prefixes: Int) { (parser.skippedLines, parser.skippedPrefixes) }

    /// Lines of the app's earlier processes that came after a later one started, not read: their number and the
    /// first one's line.
    public var lateLines: (count: Int, first: Int?) { deriver.lateLines }

    /// Lifecycle-looking lines that did not parse (the first 100) and their number.
    public var notUnderstood: (count: Int, first: [LifecycleDeriver.NotUnderstood]) {
        (deriver.notUnderstoodCount, deriver.notUnderstood)
    }

    /// The processes the capture's entries belong to, most entries first, with their counts: counted until
    /// the app's first event, so complete exactly when the app yielded none.
    public var processesSeen: [(process: String, entries: Int)] { tally.ranked }

    /// The first lines of the input while no format was recognized (at most three, shortened).
    public var firstLines: [String] { parser.firstLines }

    /// What was taken for the parts of times the capture does not print: the year (where it prints none), and
    /// the zone (where it prints none), with what the assumptions said.
    public var assumed: (year: Int?, zone: String?) {
        (
            parser.assumedYear ? Int(parser.assumptions.effectiveYear) : nil,
            parser.assumedZone ? parser.assumptions.effectiveZone : nil
        )
    }

    /// The trace header for what was read so far: derived from a log, so `source` is `oslog`, the UI states
    /// are the app-level ones (`scene_manifest: false`), and `derived: true` tells the analyzer not to expect
    /// what only instrumented code can record. Where the capture prints no year or zone, the header says what
    /// was taken (`year_assumed`, `time_zone_assumed`); `app_prints` says events came from the app's prints of
    /// its callbacks, `lifecycle: appkit` that the app is a macOS app (LaunchServices' and AppKit's lines).
    public func header(app: String?) -> TraceHeader {
        let first = deriver.firstEntry
        var header = TraceHeader(
            clock: .wall, startUnixNanoseconds: first.flatMap { $0.hasDate ? $0.timestamp : nil },
            app: deriver.bundleID ?? app, sceneManifest: false)
        header[.source] = .string("oslog")
        header.isDerived = true
        if let format = parser.format { header[.logFormat] = .string(format.rawValue) }
        if let zone = first?.zone { header[.timeZone] = .string(zone) }
        if deriver.appPrints { header[.appPrints] = .bool(true) }
        if deriver.appKit { header.lifecycle = .appkit }
        let assumed = self.assumed
        if let year = assumed.year { header[.yearAssumed] = .int(Int64(year)) }
        if assumed.zone != nil { header[.timeZoneAssumed] = .bool(true) }
        return header
    }
}

/// How many entries each process has in a capture, for a refusal to list (at most ``limit`` processes; the
/// rest are counted together).
struct ProcessTally: Sendable {
    private var counts: [String: Int] = [:]
    private var others = 0
    static let limit = 4096

    mutating func add(_ process: String) {
        if let count = counts[process] {
            counts[process] = count + 1
        } else if counts.count < Self.limit {
            counts[process] = 1
        } else {
            others += 1
        }
    }

    /// Most entries first; of equal counts, by name.
    var ranked: [(process: String, entries: Int)] {
        let sorted = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { (process: $0.key, entries: $0.value) }
        return others > 0 ? sorted + [(process: "(other processes)", entries: others)] : sorted
    }
}
