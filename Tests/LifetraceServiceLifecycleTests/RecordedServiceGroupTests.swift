import Foundation
import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat
import LifetraceRecorder
import LifetraceServiceLifecycle
import LifetraceTestSupport
import Logging
import ServiceLifecycle
import Testing

/// What the services of a test have done, for the test to wait on: each says when it is ready, and when work it
/// left behind has been done.
final class Milestones: Sendable {
    let stream: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation

    init() {
        var made: AsyncStream<String>.Continuation?
        stream = AsyncStream { made = $0 }
        continuation = made!
    }

    func reached(_ milestone: String) {
        continuation.yield(milestone)
    }

    /// Waits until `count` milestones have been reached.
    func wait(for count: Int) async {
        var seen = 0
        for await _ in stream {
            seen += 1
            if seen == count { return }
        }
    }
}

/// A service that is ready at once and returns when it is asked to shut down, after `drain`.
struct DrainingService: Service {
    var drain: Duration = .zero
    var milestones: Milestones?

    func run() async throws {
        ServiceRecording.ready()
        milestones?.reached("ready")
        try await gracefulShutdown()
        ServiceRecording.mark("drain")
        if drain > .zero { try await Task.sleep(for: drain) }
    }
}

/// A service that never looks at graceful shutdown: only cancellation ends it.
struct IgnoringService: Service {
    var milestones: Milestones?

    func run() async throws {
        ServiceRecording.ready()
        milestones?.reached("ready")
        while true { try await Task.sleep(for: .milliseconds(10)) }
    }
}

/// A service that returns on its own, leaving a task that goes on marking its work.
struct LeakingService: Service {
    var milestones: Milestones

    func run() async throws {
        Task {
            try? await Task.sleep(for: .milliseconds(20))
            ServiceRecording.mark("late-job")
            milestones.reached("late-job")
        }
    }
}

/// LifetraceServiceLifecycle in process: a ServiceGroup's services recorded as they start, become ready, are asked
/// to shut down and stop, with nothing changed in how they are written; the trace checked as `lifetrace check`
/// checks it. (Signals are the real process's: ServiceProcessTests.)
@Suite struct RecordedServiceGroupTests {
    let directory = TemporaryDirectory()

    static let logger: Logger = {
        var logger = Logger(label: "lifetrace-tests")
        logger.logLevel = .critical
        return logger
    }()

    /// A recorder of its own (the tests run side by side; ``Recorder/shared`` is the process's).
    func recorder(_ name: String) throws -> (Recorder, String) {
        let path = directory.file(name)
        let recorder = try Recorder(
            file: URL(fileURLWithPath: path), app: "tests", lifecycle: .service,
            configuration: RecorderConfiguration(flushInterval: .milliseconds(20)))
        return (recorder, path)
    }

    static func configuration(
        _ services: [(any Service, String)],
        success: ServiceGroupConfiguration.ServiceConfiguration.TerminationBehavior = .cancelGroup
    )
        -> ServiceGroupConfiguration
    {
        ServiceGroupConfiguration(
            services: services.map { .init(service: $0.0, successTerminationBehavior: success, serviceName: $0.1) },
            logger: logger)
    }

    /// Runs `group` until `count` milestones are reached (its services ready, say), asks it to shut down
    /// gracefully, and waits for it.
    static func runAndShutDown(_ group: RecordedServiceGroup, after count: Int, of milestones: Milestones) async throws
    {
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            await milestones.wait(for: count)
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    static func events(_ path: String) throws -> [LifecycleEvent] {
        let reader = try TraceReader(path: path, codec: .stored)
        var events: [LifecycleEvent] = []
        while let event = try reader.next() { events.append(event) }
        return events
    }

    static func rules(_ path: String, configuration: AnalysisConfiguration = .defaults) throws -> [RuleID] {
        try TraceAnalyzer.analyze(path: path, configuration: configuration).findings.map(\.rule.id)
    }

    /// Started in order, each ready; shut down in reverse order, each asked, then stopped; the process's exit last.
    @Test func aGracefulShutdownIsRecordedServiceByService() async throws {
        let (recorder, path) = try recorder("graceful.lifetrace")
        let milestones = Milestones()
        let group = RecordedServiceGroup(
            configuration: Self.configuration([
                (DrainingService(milestones: milestones), "http"),
                (DrainingService(drain: .milliseconds(30), milestones: milestones), "worker"),
            ]),
            recorder: recorder)
        try await Self.runAndShutDown(group, after: 2, of: milestones)
        try recorder.close()
        let events = try Self.events(path).filter { $0.kind != .heartbeat }
        let lifecycle = events.filter { $0.kind.layer == .service || $0.kind == .processExit }
            .map { "\($0.kind.name) \($0.scene ?? $0.reason ?? "")" }
        #expect(
            Array(lifecycle.prefix(4)).sorted() == [
                "service.ready http", "service.ready worker", "service.start http",
                "service.start worker",
            ])
        #expect(
            Array(lifecycle.dropFirst(4)) == [
                "service.shutdown worker", "service.stopped worker", "service.shutdown http", "service.stopped http",
                "process.exit exit",
            ])
        // The stop says how long the service ran; the worker's drain is in it, marked as its own.
        let stopped = try #require(events.first { $0.kind == .serviceStopped && $0.scene == "worker" })
        let ran = try #require(stopped.attrs?.first { $0.key == Attribute.Key.ranNanoseconds })
        guard case let .int(nanoseconds) = ran.value else {
            Issue.record("ran_ns is \(ran.value)")
            return
        }
        #expect(nanoseconds >= 30_000_000)
        #expect(events.contains { $0.kind == .custom && $0.label == "drain" && $0.scene == "worker" })
        // Each start says the service's position in its group, whose reverse is its shutdown order: the starts
        // themselves (concurrent child tasks) may come in either order.
        for (index, name) in ["http", "worker"].enumerated() {
            let start = try #require(events.first { $0.kind == .serviceStart && $0.scene == name })
            #expect(
                start.attrs == [
                    Attribute(Attribute.Key.successTermination, .string("cancelGroup")),
                    Attribute(Attribute.Key.failureTermination, .string("cancelGroup")),
                    Attribute(Attribute.Key.groupIndex, .int(Int64(index))),
                ])
        }
        let findings = try TraceAnalyzer.analyze(path: path).findings
        #expect(findings.isEmpty, "\(findings.map(\.description))")
        // The process recorded its own exit after its group's run returned: it exited, no failure.
        #expect(try TraceAnalyzer.analyze(path: path).processes.map(\.end) == [.exited])
    }

    /// A service that returns on its own: the group cancels the other and throws; the trace says so (LT090).
    @Test func aServiceThatEndsOnItsOwnIsReported() async throws {
        let (recorder, path) = try recorder("early.lifetrace")
        let group = RecordedServiceGroup(
            configuration: Self.configuration([(DrainingService(), "http"), (ClosureService {}, "jobs")]),
            recorder: recorder)
        await #expect(throws: ServiceGroupError.self) { try await group.run() }
        try recorder.close()
        let events = try Self.events(path)
        #expect(events.contains { $0.kind == .processExit && $0.reason == "error" })
        let http = try #require(events.first { $0.kind == .serviceStopped && $0.scene == "http" })
        #expect(http.attrs?.contains(Attribute(Attribute.Key.cancelled, .bool(true))) == true)
        let result = try TraceAnalyzer.analyze(path: path)
        #expect(result.findings.map(\.rule.id) == ["LT090"])
        #expect(
            result.findings.first?.message.hasPrefix(
                "service jobs returned while it ran, before any shutdown was asked") == true)
        // The group threw, and the process recorded its exit with the error.
        #expect(result.processes.map(\.end) == [.exitedWithError])
    }

    /// A service that returns, as configured (its group ignores its end), and leaves a task running: what the task
    /// marks comes after the service stopped (LT092), on the service's name (the task inherits it).
    @Test func workLeftRunningAfterAServiceStoppedIsReported() async throws {
        let (recorder, path) = try recorder("leak.lifetrace")
        let milestones = Milestones()
        let configuration = ServiceGroupConfiguration(
            services: [
                .init(service: DrainingService(milestones: milestones), serviceName: "http"),
                .init(
                    service: LeakingService(milestones: milestones), successTerminationBehavior: .ignore,
                    serviceName: "jobs"),
            ], logger: Self.logger)
        try await Self.runAndShutDown(
            RecordedServiceGroup(configuration: configuration, recorder: recorder), after: 2,
            of: milestones)
        try recorder.close()
        let result = try TraceAnalyzer.analyze(path: path)
        #expect(result.findings.map(\.rule.id) == ["LT092"])
        #expect(result.findings.first?.eventName == "custom.late-job" && result.findings.first?.scene == "jobs")
    }

    /// A service whose end its group ignores (a one-shot job) ended as configured: no finding.
    @Test func aServiceWhoseEndIsIgnoredIsNotReported() async throws {
        let (recorder, path) = try recorder("ignored.lifetrace")
        let milestones = Milestones()
        let configuration = ServiceGroupConfiguration(
            services: [
                .init(service: DrainingService(milestones: milestones), serviceName: "http"),
                .init(
                    service: ClosureService { milestones.reached("migrated") }, successTerminationBehavior: .ignore,
                    serviceName: "migrate"),
            ], logger: Self.logger)
        try await Self.runAndShutDown(
            RecordedServiceGroup(configuration: configuration, recorder: recorder), after: 2,
            of: milestones)
        try recorder.close()
        let findings = try TraceAnalyzer.analyze(path: path).findings
        #expect(findings.isEmpty, "\(findings.map(\.description))")
    }

    /// A service that ignores graceful shutdown runs until the group's maximumGracefulShutdownDuration cancels it:
    /// its stop says it was cancelled, and the check says it did not act on its request (LT095), with how long.
    @Test func aServiceCancelledAfterItsRequestIsReported() async throws {
        let (recorder, path) = try recorder("ignoring.lifetrace")
        let milestones = Milestones()
        var configuration = Self.configuration([(IgnoringService(milestones: milestones), "worker")])
        configuration.maximumGracefulShutdownDuration = .milliseconds(200)
        let group = RecordedServiceGroup(configuration: configuration, recorder: recorder)
        await #expect(throws: CancellationError.self) { try await Self.runAndShutDown(group, after: 1, of: milestones) }
        try recorder.close()
        let events = try Self.events(path)
        let stopped = try #require(events.first { $0.kind == .serviceStopped })
        #expect(stopped.attrs?.contains(Attribute(Attribute.Key.cancelled, .bool(true))) == true)
        #expect(stopped.attrs?.contains(Attribute(Attribute.Key.error, .string("CancellationError()"))) == true)
        let result = try TraceAnalyzer.analyze(path: path)
        #expect(result.findings.map(\.rule.id) == ["LT095"])
        let after = try #require(result.findings.first?.measured)
        // From the request to the group's escalation, 200 ms; a loaded machine may take longer to cancel.
        #expect(after >= 200_000_000 && after < 10_000_000_000, "\(after)")
    }

    /// Outside a recorded service, the calls a service makes do nothing.
    @Test func outsideAServiceTheCallsDoNothing() {
        ServiceRecording.ready()
        ServiceRecording.mark("nothing")
        #expect(ServiceRecording.serviceName == nil)
    }

    /// The options of a service: its lifecycle, heartbeats every flush, no app notifications, and the trace where
    /// LIFETRACE_PATH says.
    @Test func serviceOptionsFollowTheServiceLifecycle() {
        let options = RecordingOptions.service(
            name: "api", flushInterval: .milliseconds(250),
            environment: ["LIFETRACE_PATH": "/tmp/traces/"])
        #expect(options.lifecycle == .service && options.app == "api" && !options.capturesLifecycle)
        #expect(options.configuration.heartbeatInterval == .milliseconds(250))
        #expect(options.destination == .directory(URL(fileURLWithPath: "/tmp/traces/")))
        #expect(RecordingOptions.service(environment: [:]).destination == .standard)
    }
}
