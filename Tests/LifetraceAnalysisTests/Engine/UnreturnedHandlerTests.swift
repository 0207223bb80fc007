import Foundation
import LifetraceAnalysis
import LifetraceCore
import LifetraceTestSupport
import Testing

/// A handler written unfinished (format 1.1: its callback's event went out while it ran, without `dur`) whose
/// `handler.return` never came, while its process kept writing events. Apple, "applicationDidEnterBackground(_:)":
/// "Your implementation of this method has approximately five seconds to perform any tasks and
/// return … If the method does not return before time runs out your app is terminated and purged from memory."
/// The time from the callback to the process's last event is a lower bound of the handler's duration: over the
/// budget, it is the overrun (LT050, or LT051 for applicationWillTerminate), and the process was killed in the
/// handler — not terminated while suspended, which its own later events contradict.
///
/// Times are hand-computed: the handler starts at 1 s + 100 ns; a heartbeat every second from 2 s.
@Suite struct UnreturnedHandlerTests {
    static let s: Int64 = 1_000_000_000
    static let callbackT = s + 100

    /// A scene-based app with heartbeats every second, active from 40 ns, resigning at 1 s and entering the
    /// background at 1 s + 100 ns with its handler written unfinished (event #6).
    static let untilBackground = """
        {"lifetrace":1,"scene_manifest":true,"capture":"callbacks","heartbeat_ns":1000000000}
        {"t":0,"ev":"process.launch","reason":"user"}
        {"t":10,"ev":"app.didFinishLaunching","dur":5}
        {"t":20,"ev":"scene.willConnect","scene":"S1"}
        {"t":30,"ev":"scene.willEnterForeground","scene":"S1"}
        {"t":40,"ev":"scene.didBecomeActive","scene":"S1"}
        {"t":1000000000,"ev":"scene.willResignActive","scene":"S1"}
        {"t":1000000100,"ev":"scene.didEnterBackground","scene":"S1","attrs":{"unfinished":true}}
        """

    static func heartbeats(_ seconds: ClosedRange<Int64>) -> String {
        seconds.map { "{\"t\":\($0 * s),\"ev\":\"heartbeat\"}" }.joined(separator: "\n")
    }

    static let relaunch = "{\"t\":600000000000,\"ev\":\"process.launch\",\"reason\":\"user\"}"

    static func check(_ lines: String...) throws -> AnalysisResult {
        try SeedSequenceTests.check(lines.joined(separator: "\n"))
    }

    /// Heartbeats to 8 s, then nothing until the next launch: the handler ran at least 8 s − (1 s + 100 ns).
    @Test func anUnfinishedHandlerThatTheProcessOutlivesByMoreThanItsBudgetIsLT050() throws {
        let result = try Self.check(Self.untilBackground, Self.heartbeats(2...8), Self.relaunch)
        let finding = try #require(result.findings.first)
        #expect(result.findings.count == 1)
        #expect(finding.rule.id == "LT050")
        #expect(finding.measured == 8 * Self.s - Self.callbackT)
        #expect(finding.measured == 6_999_999_900)
        #expect(finding.budget == 5 * Self.s)
        #expect(finding.scene == "S1")
        // Known when the process ends: at the next launch, event #14.
        #expect(finding.eventIndex == 14 && finding.t == 600 * Self.s)
        #expect(
            finding.message
                == "scene.didEnterBackground handler ran at least 7.00s: written unfinished, it had not returned by its process's last event; over its 5.00s"
        )
        let process = try #require(result.processes.first)
        #expect(process.end == .killedInBackgroundHandler)
        #expect(
            process.endBasis
                == "a didEnterBackground handler written unfinished was still running past its budget at its process's last event, and never returned"
        )
        #expect(process.lastT == 8 * Self.s)
    }

    /// Within the budget (heartbeats to 5 s: at least 4 s − 100 ns) the trace proves nothing: no finding, and the
    /// process, idle in the background until the next launch, was terminated while suspended.
    @Test func anUnfinishedHandlerWithinItsBudgetIsNoFinding() throws {
        let result = try Self.check(Self.untilBackground, Self.heartbeats(2...5), Self.relaunch)
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
        #expect(result.processes.first?.end == .terminatedWhileSuspended)
    }

    /// The handler returned at 4.5 s (3.5 s − 100 ns): events after its return prove nothing of it.
    @Test func eventsAfterTheReturnDoNotCount() throws {
        let result = try Self.check(
            Self.untilBackground, Self.heartbeats(2...4),
            "{\"t\":4500000000,\"ev\":\"handler.return\",\"scene\":\"S1\",\"name\":\"scene.didEnterBackground\",\"dur\":3499999900}",
            Self.heartbeats(5...9), Self.relaunch)
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
        #expect(result.processes.first?.end == .terminatedWhileSuspended)
    }

    /// The same overrun in an app without a scene manifest: applicationDidEnterBackground, the page's own method.
    @Test func theAppDelegatesHandlerIsJudgedTheSame() throws {
        let result = try Self.check(
            """
            {"lifetrace":1,"scene_manifest":false,"heartbeat_ns":1000000000}
            {"t":0,"ev":"process.launch","reason":"user"}
            {"t":10,"ev":"app.didFinishLaunching","dur":5}
            {"t":20,"ev":"app.didBecomeActive"}
            {"t":1000000000,"ev":"app.willResignActive"}
            {"t":1000000100,"ev":"app.didEnterBackground","attrs":{"unfinished":true}}
            """, Self.heartbeats(2...7), Self.relaunch)
        #expect(result.findings.map(\.rule.id) == ["LT050"])
        #expect(result.findings.first?.measured == 7 * Self.s - Self.callbackT)
        #expect(result.processes.first?.end == .killedInBackgroundHandler)
    }

    /// Its kin: applicationWillTerminate has about five seconds too (Apple, "applicationWillTerminate(_:)"):
    /// unfinished at 2 s, events to 8 s, at least 6 s. The process announced its end: a clean termination.
    @Test func anUnfinishedWillTerminateOutlivedIsLT051() throws {
        let result = try Self.check(
            Self.untilBackground.replacingOccurrences(of: ",\"attrs\":{\"unfinished\":true}", with: ",\"dur\":100"),
            "{\"t\":2000000000,\"ev\":\"app.willTerminate\",\"attrs\":{\"unfinished\":true}}",
            Self.heartbeats(3...8), Self.relaunch)
        #expect(result.findings.map(\.rule.id) == ["LT051"])
        #expect(result.findings.first?.measured == 6 * Self.s && result.findings.first?.budget == 5 * Self.s)
        #expect(result.processes.first?.end == .cleanTerminate)
    }

    /// Events lost (`recorder.dropped`) may hold the `handler.return`: the handler is proven running only until
    /// the loss began. Lost from 10 s: the bound stays at the last event before, 8 s; lost from 5 s: at 5 s,
    /// within the budget.
    @Test(arguments: [(20 * s, 8 * s - callbackT), (25 * s, nil as Int64?)])
    func eventsLostEndWhatTheTraceProves(lossLength: Int64, measured: Int64?) throws {
        let result = try Self.check(
            Self.untilBackground, Self.heartbeats(2...8),
            "{\"t\":30000000000,\"ev\":\"recorder.dropped\",\"dur\":\(lossLength),\"attrs\":{\"dropped\":3}}",
            Self.heartbeats(31...40), Self.relaunch)
        #expect(result.findings.filter { $0.rule.id == "LT050" }.map(\.measured) == (measured.map { [$0] } ?? []))
    }

    /// The system's own record of the kill (`process.exit`, ground truth) ends the process there, 7 s: at least
    /// 6 s − 100 ns.
    @Test func anObservedExitEndsTheBound() throws {
        let result = try Self.check(
            Self.untilBackground.replacingOccurrences(of: "\"heartbeat_ns\":1000000000", with: "\"ground_truth\":true"),
            Self.heartbeats(2...6),
            "{\"t\":7000000000,\"ev\":\"process.exit\",\"reason\":\"background-handler-timeout\"}")
        #expect(result.findings.map(\.rule.id) == ["LT050"])
        #expect(result.findings.first?.measured == 7 * Self.s - Self.callbackT)
        #expect(result.processes.first?.end == .killedInBackgroundHandler)
    }

    /// The trace's last process, its events going on to the trace's end: the overrun is a finding at the last
    /// event, and the process, alive at the end of the trace, is `trace-ended`.
    @Test func atTheTracesEndTheOverrunIsAFindingAndTheProcessTraceEnded() throws {
        let result = try Self.check(Self.untilBackground, Self.heartbeats(2...8))
        #expect(result.findings.map(\.rule.id) == ["LT050"])
        #expect(result.findings.first?.eventName == "heartbeat" && result.findings.first?.t == 8 * Self.s)
        #expect(result.findings.first?.measured == 8 * Self.s - Self.callbackT)
        #expect(result.processes.map(\.end) == [.traceEnded])
    }
}

/// A process the trace shows alive at its end — its events go on to the trace's end, no next launch, no exit —
/// is `trace-ended`, whatever is open; the same process followed by a new launch was killed with what it left
/// open. (Apple, "Extending your app's background execution time": "If you don't end your tasks in a timely
/// manner, the system terminates your app" — which only a next launch or an exit shows.)
@Suite struct TraceEndTests {
    static let openTask =
        SeedSequenceTests.launch + """

            {"t":50,"ev":"scene.willResignActive","scene":"S1"}
            {"t":60,"ev":"scene.didEnterBackground","scene":"S1","dur":1000}
            {"t":70,"ev":"task.begin","task":1,"name":"upload"}
            {"t":2000000000,"ev":"custom.progress"}
            """

    @Test func anOpenTaskAtTheTracesEndIsNoKill() throws {
        let result = try SeedSequenceTests.check(Self.openTask)
        #expect(result.processes.map(\.end) == [.traceEnded])
        #expect(result.processes.first?.endBasis == "the trace ends while the process is alive or suspended")
        // The task, 2 s into the background, is open; its 30 s had not passed: no finding.
        #expect(result.findings.map(\.rule.id) == [])
    }

    @Test func theSameTaskFollowedByANewLaunchWasKilledWithIt() throws {
        let result = try SeedSequenceTests.check(
            Self.openTask + "\n{\"t\":900000000000,\"ev\":\"process.launch\",\"reason\":\"user\"}")
        #expect(result.processes.map(\.end) == [.killedWithBackgroundTask, .traceEnded])
    }

    /// A handler that overran and returned, the process's last events: alive at the trace's end.
    @Test func aReturnedOverrunAtTheTracesEndIsNoKill() throws {
        let result = try SeedSequenceTests.check(
            SeedSequenceTests.launch + """

                {"t":50,"ev":"scene.willResignActive","scene":"S1"}
                {"t":60,"ev":"scene.didEnterBackground","scene":"S1","dur":6200000000}
                """)
        #expect(result.findings.map(\.rule.id) == ["LT050"])
        #expect(result.processes.map(\.end) == [.traceEnded])
    }
}
