import ArgumentParser
import Foundation
import LifetraceCore
import LifetraceFormat
import LifetraceImport
import LifetraceIngest
import SystemPackage

/// `lifetrace import LOG -o OUT`: lifecycle traces from unified-log captures of apps nobody instrumented.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Derive a lifecycle trace from a unified-log capture (log stream, log show, Console, idevicesyslog, Xcode).",
        discussion: """
            Reads `log stream`/`log show` output in the default, compact, ndjson or json style, lines copied \
            out of Console, idevicesyslog's lines and Xcode's debug console, and derives the selected app's \
            lifecycle from what UIKit, SpringBoard, runningboardd, assertiond, launchd, the kernel and \
            BGTaskScheduler log, and from the app's own `lifetrace ev=...` lines (Schemas/oslog-mapping.md). \
            Where a capture prints no year (idevicesyslog) or no zone, --year and --time-zone say them; \
            otherwise the current year and UTC are taken, a warning says so and the header records it. A \
            capture with no entry that yields an event for the app is an error (exit 2) that lists the \
            processes it holds. \
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

    @Option(help: "The year of the capture's first entry, where the capture prints none (idevicesyslog); default: the current year.")
    var year: Int?

    @Option(name: .customLong("time-zone"), parsing: .unconditional,
            help: "The zone of the capture's times where it prints none (idevicesyslog, log --style compact, older Xcode consoles): ±HHMM or UTC; default: UTC.")
    var timeZone: String?

    @OptionGroup(title: "Header metadata")
    var metadata: HeaderMetadataOptions

    @Flag(help: "Fail when lifecycle-looking lines do not parse.")
    var strict = false

    func validate() throws {
        guard process != nil || bundleID != nil || pid != nil else {
            throw ValidationError("select the app with --process, --bundle-id or --pid")
        }
        if live, log != "-" { throw ValidationError("--live reads standard input: give no capture file") }
        if let timeZone, TimeAssumptions.normalizedZone(timeZone) == nil {
            throw ValidationError("--time-zone takes an offset such as +0700, -05:00 or UTC, not '\(timeZone)'")
        }
        if let year, !(1971...2261).contains(year) { throw ValidationError("--year takes a year from 1971 to 2261") }
    }

    func run() throws {
        // Writing the trace over the capture would destroy it before it is read.
        try OutputFile.checkNotAnInput(output, inputs: [log])
        let descriptor: FileDescriptor = try log == "-" ? .standardInput : .open(forReading: log)
        defer { if log != "-" { try? descriptor.close() } }
        let sink = ImportSink(output: output, live: live)
        // Live imports end with Ctrl-C: close the trace, index and all, as `record` does.
        let signals = live ? SignalForwarding(child: nil) { try? sink.closeRecorder() } : nil
        defer { signals?.cancel() }
        let selection = AppSelection(process: process, bundleID: bundleID, pid: pid)
        var importer = LogImporter(selection: selection, assumptions: TimeAssumptions(year: year, zone: timeZone))
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
        if importer.entries == 0 {
            // Nothing was written: no event came from it. An empty input, lines in no known format, or lines that
            // start like JSON but hold no log entry (a binary file, say), are no capture.
            if number == 0 { throw TraceError(.unrecognized, file: log, at: .file, "empty: no log line to import") }
            throw TraceError(.unrecognized, file: log, at: .line(1), Self.notACapture(importer))
        }
        if importer.events == 0, sink.events == 0, derived.isEmpty {
            // Entries, but none of the app's: a trace without events would say nothing, silently.
            Diagnostics.error("\(log): \(Self.noEvent(importer, selection: selection))")
            throw ExitCode(ExitStatus.badInput)
        }
        for event in derived { try sink.write(event, header: metadata.applied(to: importer.header(app: app))) }
        try sink.close(header: metadata.applied(to: importer.header(app: app)))

        let (count, first) = importer.notUnderstood
        let notUnderstood = first.first.map { example in
            let text = example.text.split(separator: "\n").first.map(String.init) ?? ""
            return "\(log): \(count) lines not understood; first: line \(example.line): \(text)"
        }
        if strict, count > 0, let notUnderstood {
            // A failed strict import leaves no trace behind (a live one keeps what it recorded), and says only
            // its error: what was skipped and what was assumed describe a trace that is not there.
            if !live, output != "-" { try? FileManager.default.removeItem(atPath: output) }
            Diagnostics.error(notUnderstood)
            throw ExitCode(ExitStatus.badInput)
        }
        let skipped = importer.skipped
        if skipped.lines > 0 || skipped.prefixes > 0 {
            var what = skipped.lines == 1 ? "1 line that is not a log entry" : "\(skipped.lines) lines that are not log entries"
            if skipped.prefixes > 0 {
                what += ", and the text before the entry on \(skipped.prefixes) line\(skipped.prefixes == 1 ? "" : "s")"
            }
            Diagnostics.note("\(log): skipped \(what)")
        }
        let format = importer.format?.rawValue ?? "unrecognized"
        Diagnostics.note("\(output): \(sink.events) events from \(importer.entries) log entries (\(format))")
        if count > 0, let notUnderstood { Diagnostics.warning(notUnderstood) }
        // What was taken for the year and zone the capture does not print.
        if let assumed = assumptionNote(importer) {
            if (importer.assumed.year == nil || year != nil) && (importer.assumed.zone == nil || timeZone != nil) {
                Diagnostics.note("\(log): \(assumed)")
            } else {
                Diagnostics.warning("\(log): \(assumed)")
            }
        }
    }
}

extension Import {
    /// The refusal of input with no entry: the formats tried, and what its first lines look like.
    static func notACapture(_ importer: LogImporter) -> String {
        var text = "not a unified-log capture: no line reads as an entry of "
            + LogFormat.allCases.map(\.rawValue).joined(separator: ", ")
        if !importer.firstLines.isEmpty {
            text += "; the first lines: " + importer.firstLines.map { "\"\($0)\"" }.joined(separator: ", ")
        }
        return text
    }

    /// The refusal of a capture whose entries yield no event for the app: the processes it holds.
    static func noEvent(_ importer: LogImporter, selection: AppSelection) -> String {
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

    /// What was taken for the year and the zone the capture does not print, if anything.
    func assumptionNote(_ importer: LogImporter) -> String? {
        let assumed = importer.assumed
        var parts: [String] = []
        if let taken = assumed.year { parts.append("year \(taken) (\(year != nil ? "--year" : "the current year; give --year"))") }
        if let taken = assumed.zone {
            parts.append("zone \(taken) (\(timeZone != nil ? "--time-zone" : "UTC; give --time-zone"))")
        }
        guard !parts.isEmpty else { return nil }
        let missing = [assumed.year != nil ? "no year" : nil, assumed.zone != nil ? "no zone" : nil].compactMap { $0 }
        return "the capture prints \(missing.joined(separator: " and ")): took \(parts.joined(separator: " and "))"
    }
}
