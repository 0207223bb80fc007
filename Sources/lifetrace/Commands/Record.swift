import ArgumentParser
import Dispatch
import Foundation
import LifetraceCore
import LifetraceFormat
import LifetraceZstd
import LifetraceRecorder
import SystemPackage

/// `lifetrace record -o OUT [-- COMMAND ARGS...]`: turns a live JSON Lines stream into a crash-safe trace.
struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record a live JSON Lines stream (standard input, or a command's output) into a .lifetrace file.",
        discussion: """
            Lines that start with '{' must be lifetrace JSON Lines (the first may be the header); other lines, \
            such as a test runner's own output, are passed through to standard output. Events are recorded in \
            the order they come: an event whose t is before the last one's (two producers writing into one \
            pipe) is kept, its time raised to the last one, and the summary says how many were. Events are \
            flushed as a zstd frame every --flush-interval, so killing lifetrace loses at most that much; \
            SIGINT and SIGTERM close the trace cleanly. With a command, lifetrace exits with the command's \
            status; SIGINT and SIGTERM are passed on to the command and recording goes on until it exits (a \
            service's graceful shutdown is recorded to its end), a second signal closing the trace at once. Malformed lifecycle lines, and events lost because the trace could not be written (a full \
            disk), make the exit status 2 with one line on standard error: how many, and the first.
            """
    )

    @Option(name: .shortAndLong, help: "The .lifetrace file to write.")
    var output: String

    @Option(help: "How often to write buffered events (e.g. 1s, 250ms).")
    var flushInterval = "1s"

    @Option(help: "The app's bundle identifier, for the header when the stream has none.")
    var app: String?

    @OptionGroup(title: "Header metadata")
    var metadata: HeaderMetadataOptions

    @Flag(help: "Treat lines that are not lifetrace JSON as errors instead of passing them through.")
    var strict = false

    @Argument(parsing: .postTerminator, help: "A command whose standard output to record.")
    var command: [String] = []

    func validate() throws {
        guard let interval = Nanoseconds.parse(flushInterval), interval > 0 else {
            throw ValidationError("--flush-interval must be a duration such as 1s or 250ms")
        }
    }

    func run() throws {
        let interval = Nanoseconds.parse(flushInterval)!
        // An output that cannot be created fails the run before any line is read or the command is started.
        let sink = try FileSink(path: output)
        var child: Process?
        var descriptor = FileDescriptor.standardInput
        if !command.isEmpty {
            // The command runs as a Foundation `Process` (Linux, macOS and Windows alike), not through
            // swift-subprocess 1.0.2: its API is async only, so `record` would become an async command that reads
            // the command's output as an async sequence of buffers instead of the blocking `LineStream` that also
            // reads standard input; forwarding SIGINT and SIGTERM would still need `signal(_:_:)` to take them
            // from their default action, so no platform code would go; and its manifest needs
            // swift-tools-version 6.2 (and declares iOS 99), which every app that resolves this package would
            // then need, though only the command line uses it.
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = command
            let pipe = Pipe()
            process.standardOutput = pipe
            CommandLineSystem.unblockStopSignals()
            do {
                try process.run()
            } catch {
                throw TraceError(.io, file: command[0], at: .file, "cannot run: \(error.localizedDescription)")
            }
            descriptor = FileDescriptor(rawValue: pipe.fileHandleForReading.fileDescriptor)
            child = process
        }
        let session = RecordSession(output: output, sink: sink, app: app, metadata: metadata, strict: strict,
                                    configuration: RecorderConfiguration(flushInterval: .nanoseconds(interval)))
        let signals = SignalForwarding(child: child) { try? session.close() }
        var lines = LineStream(descriptor: descriptor)
        // A reader of the passed-through lines that goes away does not stop the recording.
        var passthrough = StandardOutput(keepsGoing: true)
        while try lines.next({ line in
            if let echo = try session.take(line) {
                passthrough.write(echo)
                passthrough.write("\n")
            }
        }) {
            passthrough.flush()
        }
        passthrough.flush()
        let closeError = session.closeReportingError()
        signals.cancel()
        let complete = session.printSummary(closeError: closeError)
        if let child {
            child.waitUntilExit()
            let status = child.terminationReason == .uncaughtSignal ? 128 + child.terminationStatus : child.terminationStatus
            if status != 0 { throw ExitCode(status) }
        }
        if !complete { throw ExitCode(ExitStatus.badInput) }
    }
}

/// The state of one `record` run: the decoder, the recorder it feeds, and what it rejected.
final class RecordSession: @unchecked Sendable {
    private let output: String
    /// The output file, created before the run starts; the trace is written into it once its header is known.
    private let sink: FileSink
    private let app: String?
    private let metadata: HeaderMetadataOptions
    private let strict: Bool
    private let configuration: RecorderConfiguration
    private var decoder: JSONLinesLineDecoder
    private let recorder = LazyRecorder()
    /// Guards the counts, which the summary reads after the signal queue may have closed the trace.
    private let lock = NSLock()
    private(set) var rejectedLines = 0
    /// The first line rejected, as its error says it.
    private var firstRejection: String?
    private(set) var events = 0
    /// Events whose time was before the last one's, recorded with it raised.
    private var raised = 0
    /// The latest time recorded so far.
    private var lastT = Int64.min

    init(output: String, sink: FileSink, app: String?, metadata: HeaderMetadataOptions, strict: Bool,
         configuration: RecorderConfiguration) {
        self.output = output
        self.sink = sink
        self.app = app
        self.metadata = metadata
        self.strict = strict
        self.configuration = configuration
        self.decoder = JSONLinesLineDecoder(file: "-")
        // Lines from several producers interleave: a time that goes back is raised, as the recorder does.
        self.decoder.requiresTimeOrder = false
    }

    /// Takes one input line; returns the line to pass through, if it is not lifecycle data.
    func take(_ line: UnsafeBufferPointer<UInt8>) throws -> String? {
        let first = line.first { $0 != 0x20 && $0 != 0x09 }
        guard first == UInt8(ascii: "{") else {
            if strict, first != nil { reject("-:\(decoder.lineNumber + 1): not a lifetrace JSON line") }
            // Keep line numbers in step with the input.
            _ = try? decoder.decode(UnsafeBufferPointer(start: nil, count: 0))
            return strict ? nil : String(decoding: line, as: UTF8.self)
        }
        do {
            switch try decoder.decode(line) {
            case let .header(header): try open(header)
            case let .event(event):
                try open(nil)
                if recorder.record(event) {
                    lock.withLock {
                        events += 1
                        if event.t < lastT { raised += 1 } else { lastT = event.t }
                    }
                }
            case .blank: break
            }
        } catch let error as TraceError {
            reject(error.description)
        }
        return nil
    }

    /// Counts a rejected line, keeping what the first one's error said.
    private func reject(_ description: String) {
        lock.withLock {
            rejectedLines += 1
            if firstRejection == nil { firstRejection = description }
        }
    }

    private func open(_ header: TraceHeader?) throws {
        try recorder.open {
            let header = metadata.applied(to: header ?? TraceHeader(clock: .monotonic, app: app))
            let writer = try BinaryTraceWriter(sink: sink, header: header, options: .zstd)
            return Recorder(writer: writer, configuration: configuration)
        }
    }

    /// Writes the last frame and the index (an empty trace if no line opened one); safe to call more than
    /// once and from a signal handler's queue.
    func close() throws {
        try open(nil)
        try recorder.close()
    }

    /// ``close()``, with the error it met, if any, returned for the summary rather than thrown.
    func closeReportingError() -> (any Error)? {
        do {
            try close()
            return nil
        } catch {
            return error
        }
    }

    /// Prints what was recorded: a note when everything was, else one error line with the count and the first
    /// of the lines rejected and of the events the trace lost. Returns whether everything was recorded.
    func printSummary(closeError: (any Error)?) -> Bool {
        let (events, rejected, first, raised) = lock.withLock { (self.events, rejectedLines, firstRejection, self.raised) }
        let lost = recorder.droppedEventCount
        var recorded = "recorded \(events) events"
        if raised > 0 { recorded += " (\(raised) whose t was before the last one's, raised to it)" }
        var problems: [String] = []
        if rejected > 0, let first {
            problems.append("\(first) (\(rejected) line\(rejected == 1 ? "" : "s") rejected in all)")
        }
        if lost > 0 {
            problems.append("\(output): \(lost) of the \(events) events lost: the trace could not be written"
                + " (its recorder.dropped events say when)")
        }
        if let closeError {
            let description = (closeError as? TraceError)?.description ?? "\(output): \(closeError)"
            problems.append(description)
        }
        guard problems.isEmpty else {
            Diagnostics.error(problems.joined(separator: "; ") + "; \(output): " + recorded)
            return false
        }
        Diagnostics.note("\(output): " + recorded)
        return true
    }
}
