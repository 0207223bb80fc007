import Foundation
import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat
import LifetraceTestSupport
import Testing

/// The service lifecycle (`Schemas/models/service.json` and the rules code checks for it), from what its sources
/// document: swift-service-lifecycle's ServiceGroup starts each service once, shuts them down gracefully in reverse
/// start order on SIGTERM, one after the other, and by default cancels the group when a service ends on its own;
/// Kubernetes sends SIGTERM, then SIGKILL once the grace period (30 s by default) has passed; systemd kills a unit
/// that does not stop within TimeoutStopSec (90 s by default) and fails one not ready within TimeoutStartSec (90 s).
/// Durations are worked out by hand from the events' times.
@Suite struct ServiceModelTests {
    static let s: Int64 = 1_000_000_000
    static let ms: Int64 = 1_000_000

    static var header: TraceHeader {
        var header = TraceHeader(clock: .continuous, app: "service-example")
        header.lifecycle = .service
        return header
    }

    static func launch(_ t: Int64 = 0) -> LifecycleEvent {
        LifecycleEvent(t: t, kind: .processLaunch, reason: "unknown")
    }

    static func start(_ t: Int64, _ name: String, success: String = "cancelGroup", failure: String = "cancelGroup")
        -> LifecycleEvent
    {
        LifecycleEvent(
            t: t, kind: .serviceStart, scene: name,
            attrs: [
                Attribute(Attribute.Key.successTermination, .string(success)),
                Attribute(Attribute.Key.failureTermination, .string(failure)),
            ])
    }

    static func ready(_ t: Int64, _ name: String) -> LifecycleEvent {
        LifecycleEvent(t: t, kind: .serviceReady, scene: name)
    }

    static func signal(_ t: Int64, _ name: String = "SIGTERM", action: String = "graceful-shutdown") -> LifecycleEvent {
        LifecycleEvent(
            t: t, kind: .serviceSignal, reason: name, attrs: [Attribute(Attribute.Key.action, .string(action))])
    }

    static func shutdown(_ t: Int64, _ name: String, signal: String? = "SIGTERM") -> LifecycleEvent {
        LifecycleEvent(t: t, kind: .serviceShutdown, scene: name, reason: signal)
    }

    static func stopped(_ t: Int64, _ name: String, error: String? = nil, cancelled: Bool = false) -> LifecycleEvent {
        var attrs: [Attribute] = []
        if let error { attrs.append(Attribute(Attribute.Key.error, .string(error))) }
        if cancelled { attrs.append(Attribute(Attribute.Key.cancelled, .bool(true))) }
        return LifecycleEvent(t: t, kind: .serviceStopped, scene: name, attrs: attrs.isEmpty ? nil : attrs)
    }

    static func mark(_ t: Int64, _ label: String, service: String) -> LifecycleEvent {
        LifecycleEvent(t: t, kind: .custom, label: label, scene: service)
    }

    static func heartbeat(_ t: Int64) -> LifecycleEvent {
        LifecycleEvent(t: t, kind: .heartbeat)
    }

    static func exit(_ t: Int64, _ reason: String = "exit") -> LifecycleEvent {
        LifecycleEvent(t: t, kind: .processExit, reason: reason)
    }

    static func check(_ events: [LifecycleEvent], configuration: AnalysisConfiguration = .defaults) -> AnalysisResult {
        AnalysisHarness.analyze(events, header: header, configuration: configuration)
    }

    static func describe(_ result: AnalysisResult) -> String {
        "\(result.findings.map { "\($0.rule.id) #\($0.eventIndex): \($0.message)" })"
    }

    /// Two services, http then worker, both ready; SIGTERM at 10 s; the group shuts the worker down first (it
    /// drains 2 s), then http (at once); the process exits. What swift-service-lifecycle documents, within every
    /// budget.
    static let cleanRun: [LifecycleEvent] = [
        launch(), start(20 * ms, "http"), ready(21 * ms, "http"), start(22 * ms, "worker"), ready(72 * ms, "worker"),
        mark(100 * ms, "job", service: "worker"), heartbeat(1 * s),
        signal(10 * s), shutdown(10 * s + 1 * ms, "worker"), mark(10 * s + 2 * ms, "drain", service: "worker"),
        stopped(12 * s + 1 * ms, "worker"), shutdown(12 * s + 2 * ms, "http"), stopped(12 * s + 3 * ms, "http"),
        exit(12 * s + 4 * ms),
    ]

    @Test func aGracefulShutdownWithinItsGracePeriodIsClean() {
        let result = Self.check(Self.cleanRun)
        #expect(result.findings.isEmpty, "\(Self.describe(result))")
        #expect(result.processCount == 1)
    }

    /// Legal too: a service that never says it is ready (readiness is opt-in); a one-shot job whose group ignores
    /// its end (TerminationBehavior.ignore); a job whose normal return shuts its group down gracefully
    /// (gracefullyShutdownGroup), the group then asking the others; a service cancelled with its group (a
    /// cancellation signal, SIGINT) without a graceful shutdown.
    @Test(arguments: [
        [
            launch(), start(10 * ms, "http"), signal(5 * s), shutdown(5 * s + 1 * ms, "http"),
            stopped(5 * s + 2 * ms, "http"),
            exit(5 * s + 3 * ms),
        ],
        [
            launch(), start(10 * ms, "migrate", success: "ignore"), start(11 * ms, "http"), ready(12 * ms, "http"),
            stopped(3 * s, "migrate"), signal(9 * s), shutdown(9 * s + 1 * ms, "http"), stopped(9 * s + 2 * ms, "http"),
            exit(9 * s + 3 * ms),
        ],
        [
            launch(), start(10 * ms, "http"), start(11 * ms, "job", success: "gracefullyShutdownGroup"),
            stopped(3 * s, "job"), shutdown(3 * s + 1 * ms, "http", signal: nil), stopped(3 * s + 2 * ms, "http"),
            exit(3 * s + 3 * ms),
        ],
        [
            launch(), start(10 * ms, "http"), ready(11 * ms, "http"), signal(4 * s, "SIGINT", action: "cancel"),
            stopped(4 * s + 1 * ms, "http", error: "CancellationError()", cancelled: true),
            exit(4 * s + 2 * ms, "error"),
        ],
    ])
    func documentedLifecyclesAreClean(events: [LifecycleEvent]) {
        let result = Self.check(events)
        #expect(result.findings.isEmpty, "\(Self.describe(result))")
    }

    /// Each illegal sequence is a finding of the rule whose meaning it breaks, and of no other.
    @Test(
        arguments: [
            // ServiceGroup runs run() once: a second start, ready or stop is two services sharing a name.
            ([start(0, "http"), ready(1 * ms, "http"), ready(2 * ms, "http")], ["LT096"]),
            ([start(0, "http"), start(1 * ms, "http")], ["LT096"]),
            ([shutdown(0, "http")], ["LT096"]),
            ([stopped(0, "http")], ["LT096"]),
            // Ready while draining: a load balancer would send it traffic as it stops.
            ([start(0, "http"), shutdown(1 * ms, "http"), ready(2 * ms, "http"), stopped(3 * ms, "http")], ["LT096"]),
            // Anything of a service after its stop.
            ([start(0, "http"), shutdown(1 * ms, "http"), stopped(2 * ms, "http"), ready(3 * ms, "http")], ["LT092"]),
            (
                [
                    start(0, "http"), shutdown(1 * ms, "http"), stopped(2 * ms, "http"),
                    mark(3 * ms, "request", service: "http"),
                ],
                ["LT092"]
            ),
            // Ended on its own, the group cancelling the rest (the default); threw with a graceful group shutdown.
            ([start(0, "http"), ready(1 * ms, "http"), stopped(2 * ms, "http")], ["LT090"]),
            (
                [start(0, "http", failure: "gracefullyShutdownGroup"), stopped(2 * ms, "http", error: "bind failed")],
                ["LT090"]
            ),
            // Asked, and stopped only when the group cancelled it (maximumGracefulShutdownDuration).
            (
                [
                    start(0, "worker"), shutdown(1 * ms, "worker"),
                    stopped(5 * s, "worker", error: "CancellationError()", cancelled: true),
                ],
                ["LT095"]
            ),
        ] as [([LifecycleEvent], [RuleID])])
    func anIllegalSequenceIsAFindingOfItsRule(events: [LifecycleEvent], rules: [RuleID]) {
        let result = Self.check(
            [Self.launch()]
                + events.map {
                    var e = $0
                    e.t += 10 * Self.ms
                    return e
                }
                + [Self.exit(20 * Self.s)])
        #expect(result.findings.map(\.rule.id) == rules, "\(Self.describe(result))")
    }

    /// The messages say what happened and what the group did next.
    @Test func anEarlyEndSaysWhatItsGroupDoes() throws {
        let returned = Self.check([Self.launch(), Self.start(1 * Self.ms, "http"), Self.stopped(2 * Self.ms, "http")])
        #expect(
            returned.findings.first?.message
                == "service http returned while it ran, before any shutdown was asked: its group then cancels every other service, with no graceful shutdown (successTerminationBehavior cancelGroup)"
        )
        #expect(returned.findings.first?.scene == "http")
        let threw = Self.check([
            Self.launch(), Self.start(1 * Self.ms, "db", failure: "gracefullyShutdownGroup"),
            Self.stopped(2 * Self.ms, "db", error: "connection refused"),
        ])
        #expect(
            threw.findings.first?.message
                == "service db threw connection refused while it ran, before any shutdown was asked: its group then shuts the other services down gracefully and throws its error (failureTerminationBehavior gracefullyShutdownGroup)"
        )
    }

    // MARK: - Which models judge a service

    /// A service's trace is judged by the service model alone; an app's never by it.
    @Test func theServiceModelAppliesToServicesAlone() {
        let applying = LifecycleModel.builtIn.filter { $0.applies(sceneManifest: nil, lifecycle: .service) }.map(\.name)
        #expect(applying == ["service"])
        for lifecycle in TraceHeader.Lifecycle.allCases where lifecycle != .service {
            #expect(
                !LifecycleModel.builtIn.contains {
                    $0.name == "service" && $0.applies(sceneManifest: true, lifecycle: lifecycle)
                })
        }
        // UIKit callbacks in a service's trace are no app model's to judge.
        let result = Self.check([
            Self.launch(), LifecycleEvent(t: 1, kind: .sceneDidBecomeActive, scene: "S1"),
            LifecycleEvent(t: 2, kind: .appWillTerminate, dur: 10 * Self.s),
        ])
        #expect(result.findings.isEmpty, "\(Self.describe(result))")
    }

    /// Every service rule is in the catalogue, with its source, for `lifetrace rules` and `explain`.
    @Test func everyServiceRuleIsExplained() throws {
        for id: RuleID in ["LT090", "LT091", "LT092", "LT093", "LT094", "LT095", "LT096"] {
            let rule = try #require(RuleCatalog.rule(id))
            #expect(!rule.source.isEmpty && !rule.explanation.isEmpty && !rule.fix.isEmpty, "\(id)")
        }
        let sources = RuleCatalog.all.filter { $0.id >= "LT090" && $0.id <= "LT096" }.map(\.source).joined()
        for title in [
            "“Termination of Pods”", "“Pod Lifecycle”", "“systemd.service”", "TimeoutStopSec", "TimeoutStartSec",
            "maximumGracefulShutdownDuration", "successTerminationBehavior",
            "“Adopting ServiceLifecycle in applications”",
        ] {
            #expect(sources.contains(title), "no rule cites \(title)")
        }
    }
}
