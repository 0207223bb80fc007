public import LifetraceCore

/// Turns a unified-log capture (`log stream`, `log show`, Console copies) into lifecycle events for one app.
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
    private var parser = LogLineParser()
    private var deriver: LifecycleDeriver

    /// Creates an importer for the selected app.
    public init(selection: AppSelection) {
        deriver = LifecycleDeriver(selection: selection)
    }

    /// Feeds one physical line (without its newline); calls `emit` with each event it completes.
    public mutating func feed(_ line: Substring, number: Int, _ emit: (LifecycleEvent) throws -> Void) rethrows {
        // Captures saved on Windows end their lines with CR LF.
        let line = line.utf8.last == UInt8(ascii: "\r") ? line.dropLast() : line
        if let entry = parser.feed(line, number: number) { try deriver.consume(entry, emit) }
    }

    /// Ends the capture: derives the events of its last entry, and of any held back (``TaskNumbering``).
    public mutating func finish(_ emit: (LifecycleEvent) throws -> Void) rethrows {
        if let entry = parser.finish() { try deriver.consume(entry, emit) }
        try deriver.finish(emit)
    }

    /// The capture's format, once detected.
    public var format: LogFormat? { parser.format }

    /// Entries read.
    public var entries: Int { deriver.entries }

    /// Lines with text that is no log entry (prose around a pasted capture, header lines, fragments), and
    /// lines whose entry came after other text: what was skipped. Blank lines and Markdown fences are not
    /// counted.
    public var skipped: (lines: Int, prefixes: Int) { (parser.skippedLines, parser.skippedPrefixes) }

    /// Lifecycle-looking lines that did not parse (the first 100) and their number.
    public var notUnderstood: (count: Int, first: [LifecycleDeriver.NotUnderstood]) {
        (deriver.notUnderstoodCount, deriver.notUnderstood)
    }

    /// The trace header for what was read so far: derived from a log, so `source` is `oslog`, the UI states
    /// are the app-level ones (`scene_manifest: false`), and `derived: true` tells the analyzer not to expect
    /// what only instrumented code can record.
    public func header(app: String?) -> TraceHeader {
        let first = deriver.firstEntry
        var header = TraceHeader(
            clock: .wall, startUnixNanoseconds: first.flatMap { $0.hasDate ? $0.timestamp : nil },
            app: deriver.bundleID ?? app, sceneManifest: false)
        header[extra: TraceHeader.Key.source] = .string("oslog")
        header.isDerived = true
        if let format = parser.format { header[extra: "log_format"] = .string(format.rawValue) }
        if let zone = first?.zone { header[extra: "time_zone"] = .string(zone) }
        return header
    }
}
