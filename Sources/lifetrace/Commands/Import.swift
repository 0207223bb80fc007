import ArgumentParser
import Foundation
import LifetraceCore
import LifetraceFormat
import LifetraceImport
import LifetraceIngest
import SystemPackage

/// `lifetrace import LOG -o OUT`: lifecycle traces from unified-log captures of apps nobody instrumented.
struct Import: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract:
            "Derive a lifecycle trace from a unified-log capture (log stream, log show, Console, idevicesyslog, Xcode).",
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

    @Option(
        name: .customLong("bundle-id"),
        help: "The app's bundle identifier, for SpringBoard's and runningboardd's lines.")
    var bundleID: String?

    @Option(help: "The app's process identifier.")
    var pid: Int64?

    @Flag(help: "Read standard input as it is produced, flushing a frame every second.")
    var live = false

    @Option(
        help:
            "The year of the capture's first entry, where the capture prints none (idevicesyslog); default: the current year."
    )
    var year: Int?

    @Option(
        name: .customLong("time-zone"), parsing: .unconditional,
        help:
            "The zone of the capture's times where it prints none (idevicesyslog, log --style compact, older Xcode consoles): ±HHMM or UTC; default: UTC."
    )
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

    func run(on console: Console) throws {
        // Writing the trace over the capture would destroy it before it is read.
        try OutputFile.checkNotAnInput(output, inputs: [log])
        let descriptor: FileDescriptor = try log == "-" ? console.input : .open(forReading: log)
        defer { if log != "-" { try? descriptor.close() } }
        // A live trace is read while it is written, so it is written in place; any other is put in place whole.
        let staged = live ? nil : try StagedOutput(path: output, on: console)
        let sink = ImportSink(output: output, live: live, file: staged?.sink)
        // Live imports end with Ctrl-C: close the trace, index and all, as `record` does.
        let signals = live ? SignalForwarding(childPID: nil) { try? sink.closeRecorder() } : nil
        defer { signals?.cancel() }
        let metadata = metadata
        var capture = CaptureImport(
            log: log, selection: AppSelection(process: process, bundleID: bundleID, pid: pid),
            assumptions: TimeAssumptions(year: year, zone: timeZone), sink: sink
        ) {
            metadata.applied(to: $0)
        }
        var lines = LineStream(descriptor: descriptor)
        do {
            while try lines.nextPiece({ try capture.feed($0, continuesLine: $1) }) {}
        } catch let error as TraceError where error.file == log && error.kind == .malformed {
            // A capture read with the wrong year leaves no trace behind (a live one keeps what it recorded).
            staged?.abandon()
            throw error
        }
        if case let .noEvent(message) = try capture.finish() {
            console.diagnostics.error(message)
            throw ExitCode(ExitStatus.badInput)
        }
        let notUnderstood = capture.notUnderstood
        if strict, let notUnderstood, notUnderstood.count > 0 {
            // A failed strict import leaves no trace behind (a live one keeps what it recorded), and says only
            // its error: what was skipped and what was assumed describe a trace that is not there.
            staged?.abandon()
            console.diagnostics.error(notUnderstood.line)
            throw ExitCode(ExitStatus.badInput)
        }
        try staged?.commit()
        if let skipped = capture.skippedNote { console.diagnostics.note(skipped) }
        console.diagnostics.note(capture.writtenNote(output: output, events: sink.events))
        if let notUnderstood, notUnderstood.count > 0 { console.diagnostics.warning(notUnderstood.line) }
        if let late = capture.lateLinesWarning { console.diagnostics.warning(late) }
        // What was taken for the year and zone the capture does not print.
        if let assumption = capture.assumption(yearGiven: year != nil, zoneGiven: timeZone != nil) {
            if assumption.isWarning {
                console.diagnostics.warning(assumption.text)
            } else {
                console.diagnostics.note(assumption.text)
            }
        }
    }
}
