import Foundation
import LifetraceAnalysis
import LifetraceChecking
import LifetraceCore
import LifetraceFormat
import Testing

/// A service group's shutdown as a whole (LT097), from swift-service-lifecycle, “Adopting ServiceLifecycle in
/// applications”: the group “will gracefully shut down each service one by one in reverse startup order.
/// Importantly, the ServiceGroup is going to wait for the Service/run() method to return before triggering the
/// graceful shutdown of the next service” (ServiceGroup.swift: “We have to shutdown the services in reverse”).
/// Expected findings are worked out by hand.
private let s = ServiceModelTests.s
private let ms = ServiceModelTests.ms

@Suite struct ServiceGroupOrderTests {
    typealias T = ServiceModelTests

    /// `service.start` with the service's position in its group, as LifetraceServiceLifecycle records it.
    static func start(_ t: Int64, _ name: String, index: Int64) -> LifecycleEvent {
        var event = T.start(t, name)
        event.attrs?.append(Attribute(Attribute.Key.groupIndex, .int(index)))
        return event
    }

    /// Three services started db, http, worker; SIGTERM; then `shutdown` (the requests and stops).
    static func run(_ shutdown: [LifecycleEvent], indexed: Bool = false) -> [LifecycleEvent] {
        let names = ["db", "http", "worker"]
        let starts = names.enumerated().map { i, name in
            indexed ? start(Int64(10 + i) * ms, name, index: Int64(i)) : T.start(Int64(10 + i) * ms, name)
        }
        return [T.launch()] + starts + [T.signal(5 * s)] + shutdown + [T.exit(9 * s)]
    }

    static func ids(_ result: AnalysisResult) -> [String] {
        result.findings.map(\.rule.id.rawValue)
    }

    /// Reverse start order, each asked once the one before returned: clean, with or without group_index; with
    /// the starts recorded in another order than the group's (concurrent child tasks), group_index decides.
    @Test func theDocumentedOrderIsClean() {
        let legal = [
            T.shutdown(5 * s + 1 * ms, "worker"), T.stopped(6 * s, "worker"), T.shutdown(6 * s + 1 * ms, "http"),
            T.stopped(7 * s, "http"), T.shutdown(7 * s + 1 * ms, "db"), T.stopped(8 * s, "db"),
        ]
        for indexed in [false, true] {
            let result = T.check(Self.run(legal, indexed: indexed))
            #expect(result.findings.isEmpty, "\(T.describe(result))")
        }
        // The worker's child task began first, though it is the group's second: the group asks it first.
        let raced = [
            T.launch(), Self.start(10 * ms, "worker", index: 1), Self.start(11 * ms, "http", index: 0), T.signal(5 * s),
            T.shutdown(5 * s + 1 * ms, "worker"), T.stopped(6 * s, "worker"), T.shutdown(6 * s + 1 * ms, "http"),
            T.stopped(7 * s, "http"), T.exit(8 * s),
        ]
        let result = T.check(raced)
        #expect(result.findings.isEmpty, "\(T.describe(result))")
    }

    /// A service already stopped is skipped (its group's loop continues), as is one that never started.
    @Test func aServiceThatEndedBeforeItsTurnIsSkipped() {
        let events = [
            T.launch(), T.start(10 * ms, "db"), T.start(11 * ms, "migrate", success: "ignore"),
            T.stopped(2 * s, "migrate"),
            T.signal(5 * s), T.shutdown(5 * s + 1 * ms, "db"), T.stopped(6 * s, "db"), T.exit(7 * s),
        ]
        let result = T.check(events)
        #expect(result.findings.isEmpty, "\(T.describe(result))")
    }

    /// The first-started asked first, while the others still run: LT097 on its request (event #5), naming the
    /// last-started one still running.
    @Test func theFirstStartedAskedFirstIsLT097() throws {
        let result = T.check(
            Self.run([
                T.shutdown(5 * s + 1 * ms, "db"), T.stopped(6 * s, "db"),
                T.shutdown(6 * s + 1 * ms, "worker"), T.stopped(7 * s, "worker"),
                T.shutdown(7 * s + 1 * ms, "http"), T.stopped(8 * s, "http"),
            ]))
        // db before http and worker (#5); worker's then http's requests are in reverse order of what is left.
        #expect(Self.ids(result) == ["LT097"], "\(T.describe(result))")
        let finding = try #require(result.findings.first)
        #expect(finding.eventIndex == 5 && finding.scene == "db")
        #expect(
            finding.message
                == "service db was asked to shut down before service http, started after it and still running: a ServiceGroup shuts its services down in reverse start order"
        )
    }

    /// The next asked before the previous returned: LT097 on the second request (event #6), however the order.
    @Test func theNextAskedBeforeThePreviousReturnedIsLT097() throws {
        let result = T.check(
            Self.run([
                T.shutdown(5 * s + 1 * ms, "worker"), T.shutdown(5 * s + 2 * ms, "http"),
                T.stopped(6 * s, "worker"), T.stopped(6 * s + 1 * ms, "http"),
                T.shutdown(6 * s + 2 * ms, "db"), T.stopped(7 * s, "db"),
            ]))
        #expect(Self.ids(result) == ["LT097"], "\(T.describe(result))")
        let finding = try #require(result.findings.first)
        #expect(finding.eventIndex == 6 && finding.scene == "http")
        #expect(
            finding.message.hasPrefix(
                "service http was asked to shut down while service worker, asked 1.0ms before, had not returned"))
    }

    /// Not judged: with serviceShutdownOrder "any"; once the group escalated to cancellation (a service stopped
    /// cancelled: the group then asks the next as soon as any service returns); after the recorder dropped events.
    @Test func anotherOrderEscalationOrLostEventsAreNotJudged() throws {
        let outOfOrder = Self.run([
            T.shutdown(5 * s + 1 * ms, "db"), T.shutdown(5 * s + 2 * ms, "http"), T.stopped(6 * s, "db"),
            T.stopped(6 * s + 1 * ms, "http"), T.shutdown(6 * s + 2 * ms, "worker"), T.stopped(7 * s, "worker"),
        ])
        var any = AnalysisConfiguration.defaults
        any.serviceShutdownOrder = .any
        #expect(T.check(outOfOrder, configuration: any).findings.isEmpty)
        let escalated = Self.run([
            T.shutdown(5 * s + 1 * ms, "worker"), T.stopped(5 * s + 2 * ms, "db", cancelled: true),
            T.shutdown(5 * s + 3 * ms, "http"), T.stopped(6 * s, "worker", cancelled: true),
            T.stopped(6 * s + 1 * ms, "http", cancelled: true),
        ])
        let result = T.check(escalated)
        #expect(!Self.ids(result).contains("LT097"), "\(T.describe(result))")
        var dropped = outOfOrder
        dropped.insert(
            LifecycleEvent(t: 5 * s, kind: .recorderDropped, attrs: [Attribute(Attribute.Key.dropped, .int(3))]), at: 4)
        #expect(!Self.ids(T.check(dropped)).contains("LT097"))
    }

    /// `serviceShutdownOrder` in lifetrace.json: "any" or "reverse-start"; anything else is refused.
    @Test func theOrderIsConfigurable() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("order-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func load(_ text: String) throws -> AnalysisConfiguration {
            let path = directory.appendingPathComponent("lifetrace.json").path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return try AnalysisConfiguration.load(path: path, for: T.header)
        }
        #expect(try load("{}").serviceShutdownOrder == .reverseStart)
        #expect(try load(#"{"serviceShutdownOrder": "any"}"#).serviceShutdownOrder == .any)
        #expect(try load(#"{"serviceShutdownOrder": "reverse-start"}"#).serviceShutdownOrder == .reverseStart)
        #expect(throws: TraceError.self) { try load(#"{"serviceShutdownOrder": "parallel"}"#) }
    }
}
