import LifetraceAnalysis
import LifetraceCore
import LifetraceTestSupport
import Testing

/// How a process ended is a fact about the end, never a finding by itself: each open task is judged by its own
/// deadline, whatever ended the process. Every expected value below is worked out by hand from the lines.
///
/// The app: launched at 0, its scene active at 40 ns, Home pressed at 5 s (resign at 5 s, background at
/// 5.001 s), a background task begun at 5.002 s as the app enters the background.
@Suite struct EndOfProcessTests {
    static let s: Int64 = 1_000_000_000

    static let home =
        SeedSequenceTests.launch + """

            {"t":5000000000,"ev":"scene.willResignActive","scene":"S1"}
            {"t":5001000000,"ev":"scene.didEnterBackground","scene":"S1"}
            {"t":5002000000,"ev":"task.begin","task":1,"name":"save"}
            """

    static func check(_ lines: String...) throws -> AnalysisResult {
        try SeedSequenceTests.check(([home] + lines).joined(separator: "\n"))
    }

    /// A UI test presses Home, then `XCUIApplication.terminate()` sends SIGKILL 2 s later: the task had 28 s of its
    /// 30 s left. No finding; the end says the process was killed with a task open for 2.00 s.
    @Test func aUITestsTerminateTwoSecondsAfterHomeIsNoLeak() throws {
        let result = try Self.check(#"{"t":7002000000,"ev":"process.exit","reason":"SIGKILL"}"#)
        #expect(result.findings.map(\.rule.id) == [])
        let process = try #require(result.processes.first)
        #expect(process.end == .killedWithBackgroundTask)
        #expect(
            process.endBasis
                == "ended with 1 background task open for 2.00s, its deadline not shown passing (not a finding)")
    }

    /// The same run, then the next test relaunches the app 9.5 s after the task began, with no exit recorded: the
    /// previous process was last seen as the task began. No finding.
    @Test func aRelaunchNineAndAHalfSecondsLaterIsNoLeak() throws {
        let result = try Self.check(#"{"t":14502000000,"ev":"process.launch","reason":"user"}"#)
        #expect(result.findings.map(\.rule.id) == [])
        #expect(result.processes.map(\.end) == [.killedWithBackgroundTask, .traceEnded])
    }

    /// The task's expiration handler runs at 89 s and leaves it open; a jetsam kill comes 110 s later, at 199 s.
    /// The expiration was the deadline: LT042, measured from it to the kill (110 s), though jetsam ended the
    /// process.
    @Test func anExpirationLeftUnansweredBeforeAJetsamKillIsStillLT042() throws {
        let result = try Self.check(
            #"{"t":89000000000,"ev":"task.expire","task":1}"#,
            #"{"t":199000000000,"ev":"process.exit","reason":"jetsam-per-process-limit"}"#)
        #expect(result.findings.map(\.rule.id) == ["LT042"])
        let finding = try #require(result.findings.first)
        #expect(finding.measured == 110 * Self.s && finding.budget == 1 * Self.s)
        #expect(
            finding.message
                == #"background task 1 "save" expired at t=89.000000s and its expiration handler did not end it: it was still open when its process ended"#
        )
        #expect(result.processes.first?.end == .killedByJetsam)
    }

    /// The same expiration, and a relaunch or the trace's end instead of the kill: LT042 too — the relaunch shows
    /// the process gone 110 s after the expiration; at the trace's end, a heartbeat 2 s after it shows the process
    /// alive past the grace with the task open.
    @Test func anExpirationLeftUnansweredIsLT042WhateverTheEnd() throws {
        let expire = #"{"t":89000000000,"ev":"task.expire","task":1}"#
        let relaunched = try Self.check(expire, #"{"t":199000000000,"ev":"process.launch","reason":"user"}"#)
        #expect(relaunched.findings.map(\.rule.id) == ["LT042"])
        let cut = try Self.check(expire, #"{"t":91000000000,"ev":"heartbeat"}"#)
        #expect(cut.findings.map(\.rule.id) == ["LT042"])
        #expect(cut.findings.first?.measured == 2 * Self.s)
        // Killed half a second after its expiration handler ran: within the grace, its end may have been on its way.
        let killed = try Self.check(expire, #"{"t":89500000000,"ev":"process.exit","reason":"SIGKILL"}"#)
        #expect(killed.findings.map(\.rule.id) == [])
    }

    /// A background task still running 600 s after it began (no expiration recorded), then SIGABRT: the task was
    /// 570 s past its 30 s before the crash. LT041, measured 600 s in the background; the end is still a crash.
    @Test func aTaskPastItsBudgetBeforeACrashIsStillALeak() throws {
        let result = try Self.check(#"{"t":605002000000,"ev":"process.exit","reason":"SIGABRT"}"#)
        #expect(result.findings.map(\.rule.id) == ["LT041"])
        let finding = try #require(result.findings.first)
        #expect(finding.measured == 600 * Self.s && finding.budget == 30 * Self.s)
        #expect(
            finding.message
                == #"background task 1 "save", begun at t=5.002000s, was never ended: it had run 10m00s in the background, over its 30.00s, and was still open when its process ended"#
        )
        let process = try #require(result.processes.first)
        #expect(process.end == .crashed)
        #expect(process.endBasis == "the process exited with SIGABRT, a crash")
    }

    /// Back in the foreground at 20 s, a task's time is unlimited again (Apple, "backgroundTimeRemaining"): killed
    /// 100 s later with it open, the app is not late.
    @Test func aTaskOpenInTheForegroundAtAKillIsNoLeak() throws {
        let result = try Self.check(
            #"{"t":20000000000,"ev":"scene.willEnterForeground","scene":"S1"}"#,
            #"{"t":20001000000,"ev":"scene.didBecomeActive","scene":"S1"}"#,
            #"{"t":120000000000,"ev":"process.exit","reason":"SIGKILL"}"#)
        #expect(result.findings.map(\.rule.id) == [])
        #expect(result.processes.first?.end == .killedWithBackgroundTask)
    }

    /// A UI test's `terminate()` (SIGKILL) 3 s into a run whose scene has been active since 40 ns: the process ended
    /// where its UI was, in the foreground. The scene model starts over at the exit for the next launch; that is not
    /// where this process ended. Active from 40 ns to the kill: 2_999_999_960 ns; inactive from the scene's
    /// connection to its activation (20 ns to 40 ns); in the background only before a scene was attached (0 to 20 ns:
    /// with no UI, a running app counts as in the background), never after the kill.
    @Test func aSIGKILLOfAnActiveSceneEndsItInTheForeground() throws {
        let result = try SeedSequenceTests.check(
            SeedSequenceTests.launch + "\n"
                + #"{"t":3000000000,"ev":"process.exit","reason":"SIGKILL"}"#)
        #expect(result.findings.map(\.rule.id) == [])
        #expect(result.processes.map(\.end) == [.endedInForeground])
        #expect(result.totals.active == 2_999_999_960)
        #expect(result.totals.inactive == 20)
        #expect(result.totals.background == 20)
    }

    /// An app without scenes: active at 2 µs, Home at 1 s, `applicationDidEnterBackground` at 1.001 s, then SIGKILL
    /// at 2.001 s. The app delegate's UI model starts over at the exit too; the process ended in the background,
    /// after 1 s there (1.001 s to 2.001 s), besides the 2 µs before its first UI callback (with no UI, a running app
    /// counts as in the background).
    @Test func aSIGKILLAfterTheAppDelegatesBackgroundCallbackEndsItInTheBackground() throws {
        let result = try SeedSequenceTests.check(
            """
            {"lifetrace":1,"scene_manifest":false}
            {"t":0,"ev":"process.launch","reason":"user"}
            {"t":1000,"ev":"app.didFinishLaunching"}
            {"t":2000,"ev":"app.didBecomeActive"}
            {"t":1000000000,"ev":"app.willResignActive"}
            {"t":1001000000,"ev":"app.didEnterBackground"}
            {"t":2001000000,"ev":"process.exit","reason":"SIGKILL"}
            """)
        #expect(result.findings.map(\.rule.id) == [])
        #expect(result.processes.map(\.end) == [.endedInBackground])
        #expect(result.totals.background == 1_000_000_000 + 2000)
        #expect(result.totals.active == 1_000_000_000 - 2000)
    }
}
