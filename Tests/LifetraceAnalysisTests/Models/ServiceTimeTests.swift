import LifetraceAnalysis
import LifetraceCore
import Testing

/// A service process's time as a service's: starting, running and stopping from its services' events, never an
/// app's foreground, background or suspension (a server is not suspended by the system, whatever its silence).
/// Times are worked out by hand from the events.
@Suite struct ServiceTimeTests {
    typealias T = ServiceModelTests
    static let s = T.s
    static let ms = T.ms

    /// ServiceModelTests' clean run: http starts at 20 ms, ready at 21 ms, asked at 12.002 s, stopped at
    /// 12.003 s; the worker starts at 22 ms, ready at 72 ms, asked at 10.001 s, stopped at 12.001 s.
    @Test func eachServiceReportsStartingRunningAndStopping() throws {
        let result = T.check(T.cleanRun)
        let services = try #require(result.services)
        #expect(
            services == [
                ServiceTime(
                    service: "http",
                    times: ServiceTimes(
                        starting: 1 * Self.ms, running: 12 * Self.s + 2 * Self.ms - 21 * Self.ms,
                        stopping: 1 * Self.ms)),
                ServiceTime(
                    service: "worker",
                    times: ServiceTimes(
                        starting: 50 * Self.ms, running: 10 * Self.s + 1 * Self.ms - 72 * Self.ms,
                        stopping: 2 * Self.s)),
            ])
        #expect(
            result.serviceTotals
                == ServiceTimes(
                    starting: 51 * Self.ms, running: 22 * Self.s + 3 * Self.ms - 93 * Self.ms,
                    stopping: 2 * Self.s + 1 * Self.ms))
        // No app state: nothing counted as foreground, background or suspended.
        #expect(result.totals == StateTimes())
        #expect(result.processes.map(\.times) == [StateTimes()])
    }

    /// An hour's silence between heartbeats is a server doing nothing worth recording, not a suspension; a
    /// drain the kill cut counts as stopping to the process's last event; a service never ready counts as
    /// starting until it was asked to shut down.
    @Test func silenceIsNeverSuspensionAndOpenPhasesEndWithTheProcess() throws {
        let events = [
            T.launch(), T.start(10 * Self.ms, "http"), T.ready(20 * Self.ms, "http"), T.start(30 * Self.ms, "cache"),
            T.heartbeat(3600 * Self.s), T.signal(3600 * Self.s + 1 * Self.ms),
            T.shutdown(3600 * Self.s + 2 * Self.ms, "cache"), T.stopped(3600 * Self.s + 3 * Self.ms, "cache"),
            T.shutdown(3600 * Self.s + 4 * Self.ms, "http"), T.heartbeat(3601 * Self.s),
        ]
        let result = T.check(events)
        #expect(result.suspensionCount == 0 && result.totals == StateTimes())
        let services = try #require(result.services)
        #expect(services.map(\.service) == ["http", "cache"])
        #expect(
            services[0].times
                == ServiceTimes(
                    starting: 10 * Self.ms, running: 3600 * Self.s + 4 * Self.ms - 20 * Self.ms,
                    stopping: 1 * Self.s - 4 * Self.ms))
        #expect(
            services[1].times
                == ServiceTimes(starting: 3600 * Self.s + 2 * Self.ms - 30 * Self.ms, running: 0, stopping: 1 * Self.ms)
        )
    }

    /// An app's trace has no service times.
    @Test func anAppTraceHasNone() {
        let result = AnalysisHarness.analyze([LifecycleEvent(t: 0, kind: .processLaunch)])
        #expect(result.services == nil && result.serviceTotals == nil)
    }
}
