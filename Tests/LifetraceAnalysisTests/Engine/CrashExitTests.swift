import LifetraceAnalysis
import LifetraceTestSupport
import Testing

/// A process that ends by a crash, a jetsam kill or a SIGKILL while a background task begun in the foreground is
/// open. The task's time had not begun to count (it counts in the background only: "backgroundTimeRemaining",
/// Apple), so whatever the end, nothing is reported: the end is the crash, the kill, or a kill with a task open,
/// and its basis names the task. (EndOfProcessTests has the tasks whose deadline had passed.)
///
/// The `process.exit` reasons are those `lifetrace import` derives from the unified log
/// (`Schemas/oslog-mapping.md`): Foundation's `*** Terminating app due to uncaught exception` line, launchd's
/// `exited due to SIGNAL`, the kernel's `memorystatus: killing_...` jetsam line.
@Suite struct CrashExitTests {
    /// A scene-based app active from 40 ns that begins background task 1 at 1 s and, with it still open, ends
    /// with a `process.exit` of `reason` at 2 s.
    static func trace(exitReason reason: String, derived: Bool = false) -> String {
        let header =
            derived
            ? #"{"lifetrace":1,"scene_manifest":true,"source":"oslog","derived":true}"#
            : #"{"lifetrace":1,"scene_manifest":true}"#
        return """
            \(header)
            {"t":0,"ev":"process.launch","reason":"user"}
            {"t":10,"ev":"app.didFinishLaunching","dur":5}
            {"t":20,"ev":"scene.willConnect","scene":"S1"}
            {"t":30,"ev":"scene.willEnterForeground","scene":"S1"}
            {"t":40,"ev":"scene.didBecomeActive","scene":"S1"}
            {"t":1000000000,"ev":"task.begin","task":1}
            {"t":2000000000,"ev":"process.exit","reason":"\(reason)"}
            """
    }

    @Test(
        arguments: ["uncaught-exception", "abort", "SIGABRT", "SIGSEGV", "SIGBUS", "SIGILL", "SIGTRAP", "SIGPIPE"],
        [false, true])
    func aCrashWithATaskOpenIsACrashAndNoLeak(reason: String, derived: Bool) throws {
        let result = try SeedSequenceTests.check(Self.trace(exitReason: reason, derived: derived))
        #expect(result.findings.map(\.rule.id.rawValue) == [])
        let process = try #require(result.processes.first)
        #expect(process.end == .crashed)
        #expect(
            process.endBasis
                == "the process exited with \(reason), a crash, with 1 background task open for 1.00s, its deadline not shown passing (not a finding)"
        )
        #expect(process.lastT == 2_000_000_000)
        // No UI until the scene connects at 20 ns (background); inactive from its connection, since
        // sceneWillEnterForeground comes next (a scene connected for the foreground), until it becomes active at
        // 40 ns; active until the exit at 2 s. Nothing suspended.
        #expect(result.totals.background == 20 && result.totals.inactive == 20)
        #expect(result.totals.active == 2_000_000_000 - 40)
        #expect(result.totals.suspended == 0)
    }

    @Test(arguments: ["jetsam", "jetsam-per-process-limit", "jetsam-vm-pageshortage"])
    func aJetsamKillWithATaskOpenIsAJetsamKillAndNoLeak(reason: String) throws {
        let result = try SeedSequenceTests.check(Self.trace(exitReason: reason, derived: true))
        #expect(result.findings.isEmpty)
        let process = try #require(result.processes.first)
        #expect(process.end == .killedByJetsam)
        #expect(
            process.endBasis
                == "the kernel killed the process for memory (\(reason)), with 1 background task open for 1.00s, its deadline not shown passing (not a finding)"
        )
    }

    /// The system's kill, an exit code or an unexplained termination say nothing of a crash: the process was
    /// killed with its task open, which is how it ended, not a leak: the task, begun in the foreground, had no
    /// deadline yet.
    @Test(arguments: ["SIGKILL", "SIGTERM", "exit-code-0", "terminated", "signal"])
    func anExitThatIsNoCrashWithAYoungTaskIsNoLeak(reason: String) throws {
        let result = try SeedSequenceTests.check(Self.trace(exitReason: reason))
        #expect(result.findings.map(\.rule.id.rawValue) == [])
        #expect(result.processes.first?.end == .killedWithBackgroundTask)
        #expect(
            result.processes.first?.endBasis
                == "ended with 1 background task open for 1.00s, its deadline not shown passing (not a finding)")
    }

    /// A crash with no task open is a crash too, rather than "ended in the foreground".
    @Test func aCrashWithNothingOpenIsACrash() throws {
        let text = Self.trace(exitReason: "SIGSEGV").split(separator: "\n").filter { !$0.contains("task.begin") }
        let result = try SeedSequenceTests.check(text.joined(separator: "\n"))
        #expect(result.findings.isEmpty)
        #expect(result.processes.first?.end == .crashed)
        #expect(result.endCounts == [.crashed: 1])
    }
}
