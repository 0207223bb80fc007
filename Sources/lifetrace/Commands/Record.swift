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
            such as a test runner's own output, are passed through to standard output. Events are flushed as \
            a zstd frame every --flush-interval, so killing lifetrace loses at most that much; SIGINT and \
            SIGTERM close the trace cleanly. With a command, lifetrace exits with the command's status; a \
            malformed lifecycle line is reported with its line number and makes the exit status 2.
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
            do {
                try process.run()
            } catch {
                throw TraceError(.io, file: command[0], at: .file, "cannot run: \(error.localizedDescription)")
            }
            descriptor = FileDescriptor(rawValue: pipe.fileHandleForReading.fileDescriptor)
            child = process
        }
        let session = RecordSession(output: output, app: app, metadata: metadata, strict: strict,
                                    configuration: RecorderConfiguration(flushInterval: .nanoseconds(interval)))
        let signals = SignalForwarding(child: child) { try? session.close() }
        var lines = LineStream(descriptor: descriptor)
        var passthrough = StandardOutput()
        while try lines.next({ line in
            if let echo = try session.take(line) {
                passthrough.write(echo)
                passthrough.write("\n")
            }
        }) {
            passthrough.flush()
        }
        passthrough.flush()
        try session.close()
        signals.cancel()
        session.printSummary()
        if let child {
            child.waitUntilExit()
            let status = child.terminationReason == .uncaughtSignal ? 128 + child.terminationStatus : child.terminationStatus
            if status != 0 { throw ExitCode(status) }
        }
        if session.rejectedLines > 0 { throw ExitCode(ExitStatus.badInput) }
    }
}

/// The state of one `record` run: the decoder, the recorder it feeds, and what it rejected.
final class RecordSession: @unchecked Sendable {
    private let output: String
    private let app: String?
    private let metadata: HeaderMetadataOptions
    private let strict: Bool
    private let configuration: RecorderConfiguration
    private var decoder: JSONLinesLineDecoder
    private let recorder = LazyRecorder()
    /// Guards the counts, which the summary reads after the signal queue may have closed the trace.
    private let lock = NSLock()
    private(set) var rejectedLines = 0
    private(set) var events = 0

    init(output: String, app: String?, metadata: HeaderMetadataOptions, strict: Bool, configuration: RecorderConfiguration) {
        self.output = output
        self.app = app
        self.metadata = metadata
        self.strict = strict
        self.configuration = configuration
        self.decoder = JSONLinesLineDecoder(file: "-")
    }

    /// Takes one input line; returns the line to pass through, if it is not lifecycle data.
    func take(_ line: UnsafeBufferPointer<UInt8>) throws -> String? {
        let first = line.first { $0 != 0x20 && $0 != 0x09 }
        guard first == UInt8(ascii: "{") else {
            if strict, first != nil {
                lock.withLock { rejectedLines += 1 }
                Diagnostics.error("-:\(decoder.lineNumber + 1): not a lifetrace JSON line")
            }
            // Keep line numbers in step with the input.
            _ = try? decoder.decode(UnsafeBufferPointer(start: nil, count: 0))
            return strict ? nil : String(decoding: line, as: UTF8.self)
        }
        do {
            switch try decoder.decode(line) {
            case let .header(header): try open(header)
            case let .event(event):
                try open(nil)
                if recorder.record(event) { lock.withLock { events += 1 } }
            case .blank: break
            }
        } catch let error as TraceError {
            lock.withLock { rejectedLines += 1 }
            Diagnostics.error(error.description)
        }
        return nil
    }

    private func open(_ header: TraceHeader?) throws {
        try recorder.open {
            let header = metadata.applied(to: header ?? TraceHeader(clock: .monotonic, app: app))
            let writer = try BinaryTraceWriter(sink: try FileSink(path: output), header: header,
                                               options: .zstd)
            return Recorder(writer: writer, configuration: configuration)
        }
    }

    /// Writes the last frame and the index (an empty trace if no line opened one); safe to call more than
    /// once and from a signal handler's queue.
    func close() throws {
        try open(nil)
        try recorder.close()
    }

    func printSummary() {
        Diagnostics.note("\(output): recorded \(events) events" + (rejectedLines > 0 ? ", rejected \(rejectedLines) lines" : ""))
    }
}
