import ArgumentParser
import Foundation
import LifetraceCore
import LifetraceFormat
import LifetraceZstd
import LifetraceImport
import LifetraceRecorder
import SystemPackage

/// `lifetrace import LOG -o OUT`: lifecycle traces from unified-log captures of apps nobody instrumented.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Derive a lifecycle trace from a unified-log capture (log stream, log show, Console copies).",
        discussion: """
            Reads `log stream`/`log show` output in the default, compact, ndjson or json style, or lines copied \
            out of Console, and derives the selected app's lifecycle from what UIKit, SpringBoard and \
            runningboardd log, and from the app's own `lifetrace ev=...` lines (Schemas/oslog-mapping.md). \
            Every derived event keeps the log line it came from (`lifetrace dump --provenance`). Lines that \
            look like lifecycle lines but do not parse are counted and reported; --strict makes them an error. \
            With --live, standard input is read as it is produced and written with the recorder's crash-safe \
            flushing: `log stream ... | lifetrace import --live -o run.lifetrace --process MyApp`; Ctrl-C \
            (SIGINT) or SIGTERM closes the trace with its index and exits with 128 + the signal's number.
            """
    )

    @Argument(help: "The capture to read (- for standard input).")
    var log: String = "-"

    @Option(name: .shortAndLong, help: "The trace to write (.lifetrace, or .jsonl for JSON Lines).")
    var output: String

    @Option(help: "The app's process (executable) name.")
    var process: String?

    @Option(name: .customLong("bundle-id"), help: "The app's bundle identifier, for SpringBoard's and runningboardd's lines.")
    var bundleID: String?

    @Option(help: "The app's process identifier.")
    var pid: Int64?

    @Flag(help: "Read standard input as it is produced, flushing a frame every second.")
    var live = false

    @OptionGroup(title: "Header metadata")
    var metadata: HeaderMetadataOptions

    @Flag(help: "Fail when lifecycle-looking lines do not parse.")
    var strict = false

    func validate() throws {
        guard process != nil || bundleID != nil || pid != nil else {
            throw ValidationError("select the app with --process, --bundle-id or --pid")
        }
        if live, log != "-" { throw ValidationError("--live reads standard input: give no capture file") }
    }

    func run() throws {
        let descriptor: FileDescriptor = try log == "-" ? .standardInput : .open(forReading: log)
        defer { if log != "-" { try? descriptor.close() } }
        let sink = ImportSink(output: output, live: live)
        // Live imports end with Ctrl-C: close the trace, index and all, as `record` does.
        let signals = live ? SignalForwarding(child: nil) { try? sink.closeRecorder() } : nil
        defer { signals?.cancel() }
        var importer = LogImporter(selection: AppSelection(process: process, bundleID: bundleID, pid: pid))
        var lines = LineStream(descriptor: descriptor)
        var number = 0
        var derived: [LifecycleEvent] = []
        let app = bundleID ?? process
        while try lines.next({ bytes in
            number += 1
            importer.feed(String(decoding: bytes, as: UTF8.self)[...], number: number) { derived.append($0) }
            for event in derived { try sink.write(event, header: metadata.applied(to: importer.header(app: app))) }
            derived.removeAll(keepingCapacity: true)
        }) {}
        importer.finish { derived.append($0) }
        if importer.entries == 0, number > 0 {
            // Nothing was written: no event came from it. Lines in no known format, or that start like JSON
            // but hold no log entry (a binary file, say), are no capture.
            throw TraceError(.unrecognized, file: log, at: .line(1),
                             "not a unified-log capture (log stream, log show or Console lines)")
        }
        for event in derived { try sink.write(event, header: metadata.applied(to: importer.header(app: app))) }
        try sink.close(header: metadata.applied(to: importer.header(app: app)))

        let skipped = importer.skipped
        if skipped.lines > 0 || skipped.prefixes > 0 {
            var what = "\(skipped.lines) line\(skipped.lines == 1 ? "" : "s") that are not log entries"
            if skipped.prefixes > 0 {
                what += ", and the text before the entry on \(skipped.prefixes) line\(skipped.prefixes == 1 ? "" : "s")"
            }
            Diagnostics.note("\(log): skipped \(what)")
        }
        let (count, first) = importer.notUnderstood
        let format = importer.format?.rawValue ?? "unrecognized"
        if count > 0, let example = first.first {
            let text = example.text.split(separator: "\n").first.map(String.init) ?? ""
            let message = "\(log): \(count) lines not understood; first: line \(example.line): \(text)"
            if strict {
                // A failed strict import leaves no trace behind (a live one keeps what it recorded).
                if !live, output != "-" { try? FileManager.default.removeItem(atPath: output) }
                Diagnostics.error(message)
                throw ExitCode(ExitStatus.badInput)
            }
            Diagnostics.note("\(output): \(sink.events) events from \(importer.entries) log entries (\(format))")
            Diagnostics.warning(message)
        } else {
            Diagnostics.note("\(output): \(sink.events) events from \(importer.entries) log entries (\(format))")
        }
    }
}

/// Where imported events go: a trace file, opened when the first event (and so the header) is known; in live
/// mode through a recorder that flushes every second and that the signal queue may close.
final class ImportSink: @unchecked Sendable {
    private let output: String
    /// Live mode's recorder; `nil` when the events go straight to `writer`.
    private let live: LazyRecorder?
    private var writer: (any EventWriter)?
    private(set) var events = 0

    init(output: String, live: Bool) {
        self.output = output
        self.live = live ? LazyRecorder() : nil
    }

    private func open(_ header: TraceHeader) throws {
        if let live {
            try live.open { Recorder(writer: try makeEventWriter(path: output, header: header, options: .zstd), clock: .wall) }
        } else if writer == nil {
            writer = try makeEventWriter(path: output, header: header, options: .zstd)
        }
    }

    func write(_ event: LifecycleEvent, header: @autoclosure () -> TraceHeader) throws {
        if events == 0 { try open(header()) }
        events += 1
        if let live {
            _ = live.record(event)
        } else {
            try writer?.append(event)
        }
    }

    /// Writes the live recorder's last frame and the index; safe to call more than once and from any thread.
    func closeRecorder() throws {
        try live?.close()
    }

    func close(header: TraceHeader) throws {
        try open(header)
        try closeRecorder()
        try writer?.close()
    }
}
