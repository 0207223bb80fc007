// A service process as a Swift server is written: its services under swift-server's ServiceGroup, which shuts them
// down gracefully on SIGTERM, in reverse start order. The one change for lifetrace is the group's type:
// RecordedServiceGroup records each service's start, readiness, shutdown and stop, the signals and the exit.
//
//   LIFETRACE_PATH=run.lifetrace ServiceExample --drain 200ms &
//   kill -TERM $!; wait
//   lifetrace check run.lifetrace
//
// The worker's behaviour is chosen on the command line, to show what lifetrace reports:
//   --ready-after D      say it is ready D after its start (default 50ms)
//   --drain D            once asked to shut down, finish its work in hand for D (default 100ms)
//   --ignore-shutdown    never look at graceful shutdown: work until cancelled
//   --exit-after D       return D after being ready, asked by nobody
//   --leak-work          leave a job running, unawaited, when it returns
//   --max-graceful D     the group's maximumGracefulShutdownDuration (default none)
//   --flush D            the recorder's flush and heartbeat interval (default 1s)
// It writes "ready" on standard output once the worker is ready.

import Foundation
import LifetraceServiceLifecycle
import Logging
import ServiceLifecycle
import UnixSignals

@main
struct ServiceExample {
    static func main() async {
        do {
            try await run()
        } catch {
            // What the group threw: a service that ended on its own, or the error of one.
            FileHandle.standardError.write(Data("service-example: \(error)\n".utf8))
            exit(1)
        }
    }

    static func run() async throws {
        let options = try Options(CommandLine.arguments.dropFirst())
        var logger = Logger(label: "service-example")
        logger.logLevel = .warning
        // README: service-group
        var configuration = ServiceGroupConfiguration(
            services: [
                .init(service: HTTPService(), serviceName: "http"),
                .init(service: Worker(options: options), serviceName: "worker"),
            ],
            gracefulShutdownSignals: [.sigterm],
            cancellationSignals: [.sigint],
            logger: logger)
        configuration.maximumGracefulShutdownDuration = options.maxGraceful
        let group = RecordedServiceGroup(
            configuration: configuration,
            recording: .service(name: "service-example", flushInterval: options.flush))
        try await group.run()  // instead of ServiceGroup(configuration: configuration).run()
        // README: end
    }
}

/// A server that is ready at once and stops as soon as it is asked to.
struct HTTPService: Service {
    // README: service-ready
    func run() async throws {
        // Listening: ready to serve (as a systemd service sends READY=1, or its readiness probe passes).
        ServiceRecording.ready()
        try await gracefulShutdown()
    }
    // README: end
}

/// A worker that takes a job every 100 ms until it is asked to shut down, then finishes the work in hand.
struct Worker: Service {
    let options: Options

    func run() async throws {
        try await Task.sleep(for: options.readyAfter)
        ServiceRecording.ready()
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        if options.leaksWork {
            // A job left running when run() returns: its markers come after the service stopped.
            Task {
                for _ in 0..<50 {
                    try? await Task.sleep(for: .milliseconds(20))
                    ServiceRecording.mark("job")
                }
            }
        }
        if let exitAfter = options.exitAfter {
            try await Task.sleep(for: exitAfter)
            return
        }
        if options.ignoresShutdown {
            // Never looks at graceful shutdown: only cancellation (the group's escalation) ends it.
            while true {
                ServiceRecording.mark("job")
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        try await withThrowingTaskGroup(of: Void.self) { jobs in
            jobs.addTask {
                while !Task.isCancelled {
                    ServiceRecording.mark("job")
                    try? await Task.sleep(for: .milliseconds(100))
                }
            }
            try await gracefulShutdown()
            jobs.cancelAll()
        }
        // The work in hand; the group's maximumGracefulShutdownDuration cancels it if it lasts too long.
        ServiceRecording.mark("drain")
        try await Task.sleep(for: options.drain)
    }
}

/// The command line.
struct Options: Sendable {
    var readyAfter: Duration = .milliseconds(50)
    var drain: Duration = .milliseconds(100)
    var ignoresShutdown = false
    var exitAfter: Duration?
    var leaksWork = false
    var maxGraceful: Duration?
    var flush: Duration = .seconds(1)

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    init(_ arguments: some Sequence<String>) throws {
        var iterator = arguments.makeIterator()
        func duration(after option: String) throws -> Duration {
            guard let text = iterator.next(), let value = Self.duration(text) else {
                throw UsageError(description: "\(option) needs a duration such as 250ms or 2s")
            }
            return value
        }
        while let argument = iterator.next() {
            switch argument {
            case "--ready-after": readyAfter = try duration(after: argument)
            case "--drain": drain = try duration(after: argument)
            case "--ignore-shutdown": ignoresShutdown = true
            case "--exit-after": exitAfter = try duration(after: argument)
            case "--leak-work": leaksWork = true
            case "--max-graceful": maxGraceful = try duration(after: argument)
            case "--flush": flush = try duration(after: argument)
            default: throw UsageError(description: "unknown option \(argument)")
            }
        }
    }

    /// `250ms`, `2s` or `1.5s`.
    static func duration(_ text: String) -> Duration? {
        if text.hasSuffix("ms"), let value = Double(text.dropLast(2)), value >= 0 { return .milliseconds(value) }
        if text.hasSuffix("s"), let value = Double(text.dropLast()), value >= 0 { return .milliseconds(value * 1000) }
        return nil
    }
}
