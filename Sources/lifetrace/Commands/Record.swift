import ArgumentParser
import Dispatch
import Foundation
import LifetraceCore
import LifetraceFormat
import LifetraceIngest
import LifetraceRecorder
import SystemPackage

/// `lifetrace record -o OUT [-- COMMAND ARGS...]`: turns a live JSON Lines stream into a crash-safe trace.
struct Record: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
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

    func run(on console: Console) throws {
        let interval = Nanoseconds.parse(flushInterval)!
        // An output that cannot be created fails the run before any line is read or the command is started.
        let sink = try FileSink(path: output)
        var child: Process?
        var descriptor = console.input
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
            // The command inherits the process's standard input and error; on another console, it is given its.
            if console.input != .standardInput {
                process.standardInput = FileHandle(fileDescriptor: console.input.rawValue, closeOnDealloc: false)
            }
            if console.error != .standardError {
                process.standardError = FileHandle(fileDescriptor: console.error.rawValue, closeOnDealloc: false)
            }
            StopSignals.unblock()
            do {
                try process.run()
            } catch {
                throw TraceError(.io, file: command[0], at: .file, "cannot run: \(error.localizedDescription)")
            }
            descriptor = FileDescriptor(rawValue: pipe.fileHandleForReading.fileDescriptor)
            child = process
        }
        let metadata = metadata
        let session = RecordSession(
            output: output, sink: sink, app: app, strict: strict,
            configuration: RecorderConfiguration(flushInterval: .nanoseconds(interval))
        ) {
            metadata.applied(to: $0)
        }
        let signals = SignalForwarding(childPID: child?.processIdentifier) { try? session.close() }
        var lines = LineStream(descriptor: descriptor)
        // A reader of the passed-through lines that goes away does not stop the recording.
        var passthrough = StandardOutput(console, keepsGoing: true)
        while try lines.next({ line in
            if let echo = try session.take(line) {
                try passthrough.write(echo)
                try passthrough.write("\n")
            }
        }) {
            try passthrough.flush()
        }
        try passthrough.flush()
        let closeError = session.closeReportingError()
        if let child {
            // The command may close its output and run on: the signals are still its own until it exits, and
            // its status is the run's.
            child.waitUntilExit()
        }
        signals.cancel()
        var complete = true
        switch session.summary(closeError: closeError) {
        case let .complete(note): console.diagnostics.note(note)
        case let .incomplete(error):
            console.diagnostics.error(error)
            complete = false
        }
        if let child {
            let status =
                child.terminationReason == .uncaughtSignal ? 128 + child.terminationStatus : child.terminationStatus
            if status != 0 { throw ExitCode(status) }
        }
        if !complete { throw ExitCode(ExitStatus.badInput) }
    }
}
