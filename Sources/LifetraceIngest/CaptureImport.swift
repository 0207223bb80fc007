package import LifetraceCore
import LifetraceFormat
package import LifetraceImport

/// One run of `lifetrace import`: a unified-log capture fed line by line to a ``LogImporter``, the app's derived
/// events written to an ``ImportSink`` as they come, and at the end the refusal of input that is no capture or
/// holds no event of the app, or the notes on what was skipped, not understood and assumed.
package struct CaptureImport {
    /// The capture's path as given (`-` for standard input): what the refusals and notes name.
    package let log: String
    /// The importer, with what it counted.
    package private(set) var importer: LogImporter
    private let sink: ImportSink
    private let selection: AppSelection
    /// The app's name for the header where the capture does not say its bundle: the bundle or process selected.
    private let app: String?
    /// Completes the importer's header with the run's metadata.
    private let completeHeader: (TraceHeader) -> TraceHeader
    /// Events derived from the current line, or by ``finish()``, not yet written.
    private var derived: [LifecycleEvent] = []
    /// The lines fed so far.
    package private(set) var lines = 0

    /// An import of the capture `log` for the app `selection` names, into `sink`.
    package init(
        log: String, selection: AppSelection, assumptions: TimeAssumptions, sink: ImportSink,
        completeHeader: @escaping (TraceHeader) -> TraceHeader = { $0 }
    ) {
        self.log = log
        self.selection = selection
        self.sink = sink
        self.completeHeader = completeHeader
        app = selection.bundleID ?? selection.process
        importer = LogImporter(selection: selection, assumptions: assumptions, live: sink.isLive)
    }

    /// Feeds the capture's next line (without its newline) and writes the events it yields. Bytes that go on
    /// from a line longer than `LineStream.maxLine` (`continuesLine`) are not read: a message is kept to its
    /// first megabyte anyway, and the lines after it keep their numbers.
    ///
    /// - Throws: a malformed-input error naming the line of an entry whose date is in no month of the year taken
    ///   for it (``LogImporter/impossibleDate``) or whose time no trace holds (``LogImporter/outOfRange``); what
    ///   writing the trace met.
    package mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, continuesLine: Bool = false) throws {
        guard !continuesLine else { return }
        lines += 1
        importer.feed(String(decoding: bytes, as: UTF8.self)[...], number: lines) { derived.append($0) }
        if let date = importer.impossibleDate {
            throw TraceError(.malformed, file: log, at: .line(date.line), date.message)
        }
        if let date = importer.outOfRange {
            throw TraceError(.malformed, file: log, at: .line(date.line), date.message)
        }
        try writeDerived()
    }

    private mutating func writeDerived(final: Bool = false) throws {
        // The header is written with the first event: until the app's first UI event says where its UI events
        // come from (``LogImporter/headerSettled``), the events wait (a few, bounded; not in live mode).
        if !final, sink.events == 0, !sink.isLive, !importer.headerSettled,
            derived.count < LogImporter.headerHoldLimit
        {
            return
        }
        for event in derived { try sink.write(event, header: completeHeader(importer.header(app: app))) }
        derived.removeAll(keepingCapacity: true)
    }

    /// What ends an import that wrote its trace, or refuses its input.
    package enum Outcome: Equatable {
        /// The trace is written and closed.
        case imported
        /// The capture's entries yield no event for the app: nothing was written; the message lists the processes
        /// the capture holds.
        case noEvent(String)
    }

    /// Ends the capture: derives what its last entries imply, and writes and closes the trace, unless the input
    /// yields no event for the app.
    ///
    /// - Throws: an unrecognized-input error naming the capture when it holds no log entry at all (empty, or lines
    ///   in no known format); what writing the trace met.
    package mutating func finish() throws -> Outcome {
        importer.finish { derived.append($0) }
        if importer.entries == 0 {
            // Nothing was written: no event came from it. An empty input, lines in no known format, or lines that
            // start like JSON but hold no log entry (a binary file, say), are no capture.
            if lines == 0 { throw TraceError(.unrecognized, file: log, at: .file, "empty: no log line to import") }
            throw TraceError(.unrecognized, file: log, at: .line(1), notACapture)
        }
        if importer.events == 0, sink.events == 0, derived.isEmpty {
            // Entries, but none of the app's: a trace without events would say nothing, silently.
            return .noEvent("\(log): \(noEvent)")
        }
        try writeDerived(final: true)
        try sink.close(header: completeHeader(importer.header(app: app)))
        return .imported
    }

    /// The refusal of input with no entry: the formats tried, and what its first lines look like.
    var notACapture: String {
        var text =
            "not a unified-log capture: no line reads as an entry of "
            + LogFormat.allCases.map(\.rawValue).joined(separator: ", ")
        if !importer.firstLines.isEmpty {
            text += "; the first lines: " + importer.firstLines.map { "\"\($0)\"" }.joined(separator: ", ")
        }
        return text
    }

    /// The refusal of a capture whose entries yield no event for the app: the processes it holds.
    var noEvent: String {
        var selected: [String] = []
        if let process = selection.process { selected.append("process \(process)") }
        if let bundle = selection.bundleID { selected.append("bundle \(bundle)") }
        if let pid = selection.pid { selected.append("pid \(pid)") }
        let seen = importer.processesSeen
        let listed = seen.prefix(12).map { "\($0.process) (\($0.entries))" }.joined(separator: ", ")
        let more = seen.count > 12 ? ", and \(seen.count - 12) more" : ""
        return "no event for \(selected.joined(separator: ", ")) in \(importer.entries) log entries "
            + "(\(importer.format?.rawValue ?? "unrecognized")); processes seen, with their entries: \(listed)\(more)"
    }
}
