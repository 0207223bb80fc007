import LifetraceAnalysis
import LifetraceCore
import Testing

@testable import LifetraceImport

/// The system's lines in the layouts the real captures show, one case each: suspension in an idevicesyslog
/// capture, a relaunch where the capture has no pids, jetsam, BGTaskScheduler, the end of a crashed process.
@Suite struct SystemLineTests {
    static let s: Int64 = 1_000_000_000
    static let app = AppSelection(process: "App", bundleID: "com.example.App")

    /// runningboardd's `Suspending task.` / `Resuming task.` as idevicesyslog prints them.
    @Test func suspensionInTheIdevicesyslogLayout() {
        let text = """
            Oct 10 13:17:45 App(UIKitCore)[812] <Notice>: Deactivation reason added: 11; deactivation reasons: 4097 -> 6145; animating application lifecycle event: 0
            Oct 10 13:17:50 runningboardd(RunningBoard)[33] <Notice>: [app<com.example.App(8A4C)>:812] Suspending task.
            Oct 10 13:18:50 runningboardd(RunningBoard)[33] <Notice>: [app<com.example.App(8A4C)>:812] Resuming task.
            Oct 10 13:18:50 runningboardd(RunningBoard)[33] <Notice>: [app<com.example.App(8A4C)>:812] Resuming task.
            """
        let (importer, events) = ImportFixtures.importText(text, Self.app)
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 1, reason: "unknown"),
                Derived("app.didEnterBackground", t: 0, line: 1),
                Derived("process.suspend", t: 5 * Self.s, line: 2),
                Derived("process.resume", t: 65 * Self.s, line: 3),
            ])
        let result = MidSessionCaptureTests.analyze(importer, events)
        #expect(result.suspensions.map { [$0.start, $0.end] } == [[5 * Self.s, 65 * Self.s]])
        #expect(result.findings.isEmpty)
    }

    /// A Console copy has no pid column: runningboardd's job and pid for the relaunch start the new process
    /// before its first UIKit line, so its first task is its own, not the old process's (no false LT041).
    @Test func aRelaunchWithoutPidsIsANewProcessBeforeItsFirstLine() {
        let text = """
            default\t10:00:00.000000+0000\tApp\tDeactivation reason added: 11; deactivation reasons: 4097 -> 6145; animating application lifecycle event: 0
            default\t10:00:01.000000+0000\tApp\tCreated background task <_UIBackgroundTaskInfo: 0x1>: taskID = 7, taskName = upload, creationTime = 1 (elapsed = 0).
            default\t10:00:02.000000+0000\tApp\tEnding background task with UIBackgroundTaskIdentifier: 7
            default\t10:05:00.000000+0000\trunningboardd\tCreating and launching job for: app<com.example.App(8A4C)>
            default\t10:05:00.050000+0000\trunningboardd\tNow tracking process: [app<com.example.App(8A4C)>:200]
            default\t10:05:00.200000+0000\tApp\tCreated background task <private>.
            default\t10:05:00.300000+0000\tApp\tDeactivation reason removed: 10; deactivation reasons: 1024 -> 0; animating application lifecycle event: 0
            default\t10:05:01.000000+0000\tApp\tEnding background task with UIBackgroundTaskIdentifier: 1
            """
        let (importer, events) = ImportFixtures.importText(text, Self.app)
        // The new process's first line is a task's creation, not UIKit's launch line: without the job and the pid
        // it would be taken for the old process's task 8.
        let second = events.drop(while: { $0.attribute("log_line") != .int(4) })
        #expect(
            second.map(Derived.init) == [
                Derived("process.launch", t: 300 * Self.s, line: 4, reason: "unknown"),
                Derived("task.begin", t: 300 * Self.s + 200_000_000, line: 6, task: 1),
                Derived("app.didBecomeActive", t: 300 * Self.s + 300_000_000, line: 7),
                Derived("task.end", t: 301 * Self.s, line: 8, task: 1),
            ])
        #expect(second.first?.pid == nil)
        let result = MidSessionCaptureTests.analyze(importer, events)
        #expect(result.findings.isEmpty)
        #expect(result.processes.count == 2)
    }

    /// The kernel's jetsam line for the app's pid ends the process, with the cause.
    @Test func jetsamEndsTheProcess() {
        let text = """
            Oct 10 13:17:45 App[812] <Notice>: Deactivation reason added: 11; deactivation reasons: 4097 -> 6145; animating application lifecycle event: 0
            Oct 10 13:17:50 kernel[0] <Notice>: memorystatus: killing_specific_process pid 811 [Other] (per-process-limit 100) 1024KB
            Oct 10 13:17:51 kernel[0] <Notice>: memorystatus: killing_specific_process pid 812 [App] (per-process-limit 100) 51200KB - memorystatus_available_pages: 1234
            Oct 10 13:17:52 App[812] <Notice>: a last line of the killed process
            """
        let (_, events) = ImportFixtures.importText(text, Self.app)
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 1, reason: "unknown"),
                Derived("app.didEnterBackground", t: 0, line: 1),
                Derived("process.exit", t: 6 * Self.s, line: 3, reason: "jetsam-per-process-limit"),
            ])
    }

    /// After the app's crash line, its last lines start no other process; a launch does.
    @Test func theLastLinesOfACrashedProcessStartNone() {
        let text = """
            default\t10:00:00.000000+0000\tApp\tDeactivation reason removed: 5; deactivation reasons: 32 -> 0; animating application lifecycle event: 0
            default\t10:00:01.000000+0000\tApp\t*** Terminating app due to uncaught exception 'NSRangeException', reason: 'index 3 beyond bounds'
            default\t10:00:01.000100+0000\tApp\tlibc++abi: terminating due to uncaught exception of type NSException
            default\t10:00:01.000200+0000\trunningboardd\tRemoving assertions for terminated process: [app<com.example.App(8A4C)>:100]
            default\t10:01:00.000000+0000\tSpringBoard\tBootstrapping app<com.example.App> with intent foreground-interactive
            default\t10:01:00.100000+0000\tApp\tDeactivation reason added: 10; deactivation reasons: 0 -> 1024; animating application lifecycle event: 0
            """
        let (_, events) = ImportFixtures.importText(text, Self.app)
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 1, reason: "unknown"),
                Derived("app.didBecomeActive", t: 0, line: 1),
                Derived("process.exit", t: 1 * Self.s, line: 2, reason: "uncaught-exception"),
                Derived("process.launch", t: 60 * Self.s, line: 5, reason: "user"),
            ])
    }

    /// launchd's exits in their older wordings; assertiond's job as a process start.
    @Test(arguments: [
        ("Service exited due to signal: Segmentation fault: 11", "SIGSEGV"),
        ("Service exited with abnormal code: 1", "exit-code-1"),
    ])
    func olderLaunchdExits(message: String, reason: String) {
        let text = """
            Aug  7 11:42:43 iPhone assertiond[63] <Notice>: Submitted job with label: UIKitApplication:com.example.App[0x966e][63]
            Aug  7 11:42:50 iPhone com.apple.xpc.launchd[1] (UIKitApplication:com.example.App[0x966e][3832]) <Notice>: \(message)
            """
        let (_, events) = ImportFixtures.importText(text, Self.app)
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 1, reason: "unknown"),
                Derived("process.exit", t: 7 * Self.s, line: 2, reason: reason),
            ])
    }

    /// A processing task whose start names its kind; a start whose kind the log never tells is a line not
    /// understood, and what waited for it is derived all the same.
    @Test func scheduledTasksOfBothKinds() {
        let text = """
            2020-10-11 08:54:00.000000+0700 App[381:1] started
            2020-10-11 08:54:01.000000+0700 App[381:2] Starting simulated task: <BGProcessingTask: com.example.clean>
            2020-10-11 08:54:02.000000+0700 App[381:2] Marking simulated task complete: <BGProcessingTask: com.example.clean>
            2020-10-11 08:54:03.000000+0700 App[381:2] Simulating launch for task with identifier com.example.refresh
            2020-10-11 08:54:04.000000+0700 App[381:2] Starting simulated task: <decode: missing data>
            2020-10-11 08:54:05.000000+0700 App[381:2] lifetrace ev=custom.waiting
            """
        let (importer, events) = ImportFixtures.importText(text, AppSelection(process: "App"))
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 1, reason: "unknown"),
                Derived(
                    "bg.processing.begin", t: 1 * Self.s, line: 2, task: ScheduledTasks.base + 1,
                    taskName: "com.example.clean"),
                Derived(
                    "bg.processing.end", t: 2 * Self.s, line: 3, task: ScheduledTasks.base + 1,
                    taskName: "com.example.clean"),
                Derived("custom.waiting", t: 5 * Self.s, line: 6),
            ])
        #expect(importer.notUnderstood.first.map(\.line) == [5])
    }
}
