import Foundation
import LifetraceAnalysis
import LifetraceChecking
import LifetraceCore
import LifetraceFormat
import LifetraceTestSupport
import Testing

/// The service model's budgets: grace periods, readiness, and signals nothing acted on.
extension ServiceModelTests {
    /// Kubernetes' default grace period, 30 s: a drain from 10 s to 45 s took 35 s, 5 s over; one to 39.999 s is
    /// within it. The group shuts services down one after the other, so each is judged from its own request.
    @Test func aShutdownLongerThanTheGracePeriodIsMeasured() throws {
        let over = Self.check([
            Self.launch(), Self.start(1 * Self.ms, "worker"), Self.signal(10 * Self.s),
            Self.shutdown(10 * Self.s, "worker"),
            Self.stopped(45 * Self.s, "worker"), Self.exit(45 * Self.s + 1 * Self.ms),
        ])
        let finding = try #require(over.findings.first)
        #expect(over.findings.map(\.rule.id) == ["LT091"])
        #expect(finding.measured == 35 * Self.s && finding.budget == 30 * Self.s)
        #expect(finding.scene == "worker")
        let within = Self.check([
            Self.launch(), Self.start(1 * Self.ms, "worker"), Self.signal(10 * Self.s),
            Self.shutdown(10 * Self.s, "worker"),
            Self.stopped(40 * Self.s - 1 * Self.ms, "worker"), Self.exit(40 * Self.s),
        ])
        #expect(within.findings.isEmpty, "\(Self.describe(within))")
    }

    /// The grace period per service, from lifetrace.json's services: the worker's is 1 s, http keeps the default.
    /// systemd's TimeoutStopSec default, 90 s, set for every service, lets a 60 s drain through.
    @Test func theGracePeriodIsSetPerService() throws {
        let directory = TemporaryDirectory()
        let path = directory.write(
            "lifetrace.json", text: #"{"services": {"worker": {"budgets": {"shutdownGrace": "1s"}}}}"#)
        let configuration = try AnalysisConfiguration.load(path: path, for: Self.header)
        let events = [
            Self.launch(), Self.start(1 * Self.ms, "http"), Self.start(2 * Self.ms, "worker"),
            Self.signal(10 * Self.s), Self.shutdown(10 * Self.s, "worker"),
            Self.stopped(11 * Self.s + 500 * Self.ms, "worker"),
            Self.shutdown(11 * Self.s + 501 * Self.ms, "http"), Self.stopped(13 * Self.s, "http"),
            Self.exit(13 * Self.s + 1 * Self.ms),
        ]
        let result = Self.check(events, configuration: configuration)
        #expect(result.findings.map(\.rule.id) == ["LT091"], "\(Self.describe(result))")
        #expect(result.findings.first?.scene == "worker")
        #expect(result.findings.first?.measured == 1500 * Self.ms && result.findings.first?.budget == 1 * Self.s)
        #expect(result.findings.first?.message == "service worker was stopping for 1.50s, over its 1.00s")

        let systemd = try AnalysisConfiguration.load(
            path: directory.write("systemd.json", text: #"{"budgets": {"shutdownGrace": "90s"}}"#), for: Self.header)
        let drain = Self.check(
            [
                Self.launch(), Self.start(1 * Self.ms, "worker"), Self.signal(10 * Self.s),
                Self.shutdown(10 * Self.s, "worker"),
                Self.stopped(70 * Self.s, "worker"), Self.exit(70 * Self.s + 1 * Self.ms),
            ], configuration: systemd)
        #expect(drain.findings.isEmpty, "\(Self.describe(drain))")
    }

    /// Killed with SIGKILL 31 s into the worker's drain, as Kubernetes kills at the end of its 30 s: the trace
    /// stops at the last heartbeat (41 s), no exit recorded. The shutdown is measured to that event, a lower bound,
    /// and the kill is a finding of its own; http, never asked (the group was still waiting on the worker), is named
    /// by neither.
    @Test func aProcessKilledDuringItsShutdownIsReportedWithTheOverrun() throws {
        var events = [
            Self.launch(), Self.start(1 * Self.ms, "http"), Self.start(2 * Self.ms, "worker"),
            Self.ready(3 * Self.ms, "worker"), Self.signal(10 * Self.s), Self.shutdown(10 * Self.s, "worker"),
        ]
        for second in 11...41 { events.append(Self.heartbeat(Int64(second) * Self.s)) }
        let result = Self.check(events)
        #expect(result.findings.map(\.rule.id) == ["LT091", "LT093"], "\(Self.describe(result))")
        let overrun = result.findings[0]
        #expect(overrun.measured == 31 * Self.s && overrun.budget == 30 * Self.s && overrun.scene == "worker")
        #expect(
            overrun.message
                == "service worker was still stopping 31.00s after its shutdown was asked, at its process's last event: over its 30.00s grace period"
        )
        #expect(
            result.findings[1].message
                == "the process ended 31.00s into its shutdown and no exit was recorded: service worker was still stopping"
        )
        #expect(result.findings[1].measured == 31 * Self.s)
    }

    /// A supervisor that saw the kill records it. A kill 2 s into the drain, short of the 30 s grace period, is how
    /// the process ended, not a finding: nothing shows the services past their deadline (an orchestrator kills at
    /// the end of the grace period; an earlier kill is someone else's). At the grace period's end it is LT093.
    @Test func anExitRecordedAsSigkillDuringTheShutdownIsAKillOnlyPastTheGracePeriod() {
        let early = Self.check([
            Self.launch(), Self.start(1 * Self.ms, "worker"), Self.signal(10 * Self.s),
            Self.shutdown(10 * Self.s, "worker"),
            Self.exit(12 * Self.s, "SIGKILL"),
        ])
        #expect(early.findings.isEmpty, "\(Self.describe(early))")
        let due = Self.check([
            Self.launch(), Self.start(1 * Self.ms, "worker"), Self.signal(10 * Self.s),
            Self.shutdown(10 * Self.s, "worker"),
            Self.exit(40 * Self.s, "SIGKILL"),
        ])
        #expect(due.findings.map(\.rule.id) == ["LT093"], "\(Self.describe(due))")
        #expect(
            due.findings.first?.message
                == "the process ended 30.00s into its shutdown and it was killed (SIGKILL): service worker was still stopping"
        )
    }

    /// SIGTERM arrived and nothing followed but heartbeats: no service was asked to shut down. For 5 s that proves
    /// nothing yet; for the whole 30 s grace period, the signal was never acted on, and the process was then killed.
    @Test func aSignalNothingActedOnIsAFinding() {
        var events = [
            Self.launch(), Self.start(1 * Self.ms, "http"), Self.ready(2 * Self.ms, "http"), Self.signal(10 * Self.s),
        ]
        for second in 11...15 { events.append(Self.heartbeat(Int64(second) * Self.s)) }
        #expect(Self.check(events).findings.isEmpty, "\(Self.describe(Self.check(events)))")
        for second in 16...40 { events.append(Self.heartbeat(Int64(second) * Self.s)) }
        let result = Self.check(events)
        #expect(result.findings.map(\.rule.id) == ["LT093", "LT095"], "\(Self.describe(result))")
        #expect(
            result.findings.last?.message
                == "SIGTERM was never acted on: no service was asked to shut down, nor stopped, in the 30.00s to its process's last event"
        )
        #expect(result.findings.last?.measured == 30 * Self.s)
    }

    /// Readiness is opt-in: a service that never said it was ready is still one whose shutdown is owed. SIGTERM
    /// reached a process whose only service was still starting, and nothing followed for 30 s: the signal was never
    /// acted on (LT095), and the process ended during its shutdown (LT093); a start-up never completed is not an
    /// overrun of the readiness budget (LT094 judges a readiness that came).
    @Test func aSignalNothingActedOnIsAFindingWhenNoServiceWasReady() {
        var events = [Self.launch(), Self.start(1 * Self.ms, "http"), Self.signal(100 * Self.s)]
        for second in 101...130 { events.append(Self.heartbeat(Int64(second) * Self.s)) }
        let result = Self.check(events)
        #expect(result.findings.map(\.rule.id) == ["LT093", "LT095"], "\(Self.describe(result))")
        #expect(result.findings.last?.measured == 30 * Self.s)
    }

    /// A service that ignores graceful shutdown runs until its group's maximumGracefulShutdownDuration cancels it.
    @Test func aServiceStoppedOnlyByCancellationDidNotActOnItsRequest() {
        let result = Self.check([
            Self.launch(), Self.start(1 * Self.ms, "worker"), Self.signal(10 * Self.s),
            Self.shutdown(10 * Self.s, "worker"),
            Self.stopped(15 * Self.s, "worker", error: "CancellationError()", cancelled: true),
            Self.exit(15 * Self.s + 1 * Self.ms, "error"),
        ])
        #expect(result.findings.map(\.rule.id) == ["LT095"], "\(Self.describe(result))")
        #expect(result.findings.first?.measured == 5 * Self.s)
    }

    /// systemd's TimeoutStartSec, 90 s: ready 95 s after its start is 5 s over; 89.999 s is within.
    @Test func aStartUpLongerThanTheReadinessBudgetIsMeasured() throws {
        let slow = Self.check([
            Self.launch(), Self.start(500 * Self.ms, "http"), Self.ready(95 * Self.s + 500 * Self.ms, "http"),
        ])
        let finding = try #require(slow.findings.first)
        #expect(slow.findings.map(\.rule.id) == ["LT094"])
        #expect(
            finding.measured == 95 * Self.s && finding.budget == 90 * Self.s && finding.eventName == "service.ready")
        let quick = Self.check([
            Self.launch(), Self.start(500 * Self.ms, "http"), Self.ready(90 * Self.s + 499 * Self.ms, "http"),
        ])
        #expect(quick.findings.isEmpty, "\(Self.describe(quick))")
    }

    /// Each process of a trace is judged on its own: a clean one after a killed one.
    @Test func eachProcessIsJudgedOnItsOwn() {
        var events = [
            Self.launch(), Self.start(1 * Self.ms, "worker"), Self.signal(1 * Self.s),
            Self.shutdown(1 * Self.s, "worker"),
            Self.heartbeat(31 * Self.s),
        ]
        events += Self.cleanRun.map {
            var e = $0
            e.t += 100 * Self.s
            return e
        }
        let result = Self.check(events)
        #expect(result.findings.map(\.rule.id) == ["LT093"], "\(Self.describe(result))")
        #expect(result.processCount == 2)
    }
}
