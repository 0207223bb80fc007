import LifetraceAnalysis
import LifetraceCore
import Testing

@testable import LifetraceImport

/// Captures as users have them: pasted among prose, beginning in the middle of a process, holding more than
/// one process. The facts each test expects were read off the fixtures' lines by hand (Fixtures/README.md).
@Suite struct MidSessionCaptureTests {
    /// A Console capture pasted into a conversation after a sentence, beginning as the app leaves the
    /// foreground, with every task creation redacted.
    @Test func promptPalPastedMidSessionWithRedactedTasks() throws {
        let (importer, events) = try ImportFixtures.importFixture(
            "promptpal.console.md", AppSelection(process: "PromptPal", bundleID: "com.mikhailspeaks.promptpal"))
        // Origin 02:41:49.663079, the entry after "it stays open. here is console app: " on line 6.
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 6, reason: "unknown"),
                // 49.668540: reason 11 added to 4097 (reasons 0 and 12: inactive, never seen active).
                Derived("app.didEnterBackground", t: 5_461_000, line: 8),
                // The four redacted creations are UIKit's tasks 3, 4, 5, 6: the second was announced with the
                // handler block 0x107362a60 that `Ending task with identifier 4` names, so the first is 3.
                Derived("task.begin", t: 21_506_000, line: 14, task: 3),  // 49.684585
                Derived("task.begin", t: 27_380_000, line: 19, task: 4),  // 49.690459
                Derived("task.end", t: 32_599_000, line: 20, task: 4),  // 49.695678
                Derived("task.begin", t: 36_342_000, line: 24, task: 5),  // 49.699421
                Derived("task.end", t: 167_692_000, line: 28, task: 5),  // 49.830771
                Derived("task.begin", t: 179_805_000, line: 31, task: 6),  // 49.842884
                Derived("task.end", t: 179_876_000, line: 32, task: 6),  // 49.842955
                Derived("task.end", t: 181_962_000, line: 34, task: 3),  // 49.845041
            ])
        #expect(events.filter { $0.kind == .taskBegin }.allSatisfy { $0.attribute("task_id_inferred") == .bool(true) })
        #expect(events[1].attribute("state_at_capture_start") == nil)
        // The three comment and prose lines before the paste and the sentence after it; the sentence before
        // the first entry on line 6. Blank lines are not counted.
        #expect(importer.skipped.lines == 4)
        #expect(importer.skipped.prefixes == 1)
        #expect(importer.entries == 29)
        #expect(importer.notUnderstood.count == 0)
        #expect(importer.header(app: nil)[.timeZone] == .string("+0000"))
        let result = Self.analyze(importer, events)
        #expect(result.findings.isEmpty)
    }

    /// A sysdiagnose excerpt in a blog post: Console's columns with the date, zone, subsystem and category,
    /// inside a Markdown fence with prose between its parts; launchd reports the exit.
    @Test func roamSysdiagnoseExcerptWithDatesSubsystemsAndLaunchdExit() throws {
        let (importer, events) = try ImportFixtures.importFixture(
            "roam-sysdiagnose.md", AppSelection(process: "Roam", bundleID: "com.msdrigg.roam"))
        // Origin 2025-01-25 13:16:11.060118 -0500 (line 8, runningboardd, naming no pid).
        #expect(
            events.map(Derived.init) == [
                // 11.060132: runningboardd names the app's process `[app<com.msdrigg.roam(...)>:1758]`.
                Derived("process.launch", t: 14_000, line: 9, reason: "unknown"),
                // 11.060132: `Resuming task.`: the app is reopened; its suspension is before the capture.
                Derived("process.suspend", t: 14_000, line: 10),
                Derived("process.resume", t: 14_000, line: 10),
                // 11.150861: launchd, `exited due to SIGPIPE | sent by Roam[1758]`.
                Derived("process.exit", t: 90_743_000, line: 37, reason: "SIGPIPE"),
            ])
        #expect(events[0].pid == 1758)
        #expect(importer.format == .console)
        // Two comment lines, the sentence before the fence, five `>>>` headings, the cut-off mDNSResponder
        // fragment on line 17, and the sentence after the fence.
        #expect(importer.skipped.lines == 10)
        #expect(importer.skipped.prefixes == 0)
        #expect(importer.entries == 14)
        let header = importer.header(app: nil)
        // 2025-01-25 18:16:11 UTC is 1737828971 s since 1970 (`date -u -d '2025-01-25 18:16:11' +%s`).
        #expect(header.startUnixNanoseconds == 1_737_828_971_060_118_000)
        #expect(header[.timeZone] == .string("-0500"))
        let result = Self.analyze(importer, events)
        #expect(result.findings.isEmpty)
        #expect(result.processes.count == 1)
        // A SIGPIPE nobody handled: a crash (one that leaves no crash report).
        #expect(result.processes.map(\.end) == [.crashed])
    }

    /// The app relaunched within a capture: SpringBoard bootstraps it again. The new process numbers its tasks
    /// from 1 and its ends close its own tasks, not the old process's.
    @Test func aRelaunchIsANewProcess() {
        let text = """
            default\t10:00:00.000000+0000\tSpringBoard\tBootstrapping app<com.example.App> with intent foreground-interactive
            default\t10:00:00.100000+0000\tApp\tDeactivation reason added: 10; deactivation reasons: 0 -> 1024; animating application lifecycle event: 0
            default\t10:00:00.300000+0000\tApp\tDeactivation reason removed: 10; deactivation reasons: 1024 -> 0; animating application lifecycle event: 0
            default\t10:00:05.000000+0000\tApp\tCreated background task <private>.
            default\t10:00:06.000000+0000\tApp\tDeactivation reason added: 0; deactivation reasons: 0 -> 1; animating application lifecycle event: 1
            default\t10:00:06.100000+0000\tApp\tDeactivation reason added: 11; deactivation reasons: 1 -> 2049; animating application lifecycle event: 0
            default\t10:00:07.000000+0000\tApp\tEnding background task with UIBackgroundTaskIdentifier: 1
            default\t10:10:00.000000+0000\tSpringBoard\tBootstrapping app<com.example.App> with intent foreground-interactive
            default\t10:10:00.100000+0000\tApp\tDeactivation reason added: 10; deactivation reasons: 0 -> 1024; animating application lifecycle event: 0
            default\t10:10:00.200000+0000\tApp\tCreated background task <private>.
            default\t10:10:00.300000+0000\tApp\tDeactivation reason removed: 10; deactivation reasons: 1024 -> 0; animating application lifecycle event: 0
            default\t10:10:01.000000+0000\tApp\tEnding background task with UIBackgroundTaskIdentifier: 1
            """
        let (importer, events) = ImportFixtures.importText(
            text, AppSelection(process: "App", bundleID: "com.example.App"))
        let s: Int64 = 1_000_000_000
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 1, reason: "user"),
                Derived("app.didBecomeActive", t: 300_000_000, line: 3),
                Derived("task.begin", t: 5 * s, line: 4, task: 1),
                Derived("app.willResignActive", t: 6 * s, line: 5),
                Derived("app.didEnterBackground", t: 6 * s + 100_000_000, line: 6),
                Derived("task.end", t: 7 * s, line: 7, task: 1),
                Derived("process.launch", t: 600 * s, line: 8, reason: "user"),
                Derived("task.begin", t: 600 * s + 200_000_000, line: 10, task: 1),
                Derived("app.didBecomeActive", t: 600 * s + 300_000_000, line: 11),
                Derived("task.end", t: 601 * s, line: 12, task: 1),
            ])
        let result = Self.analyze(importer, events)
        #expect(result.findings.isEmpty)
        #expect(result.processes.count == 2)
        // Inactive 0.3 s after each launch, and 0.1 s between resigning and entering the background.
        #expect(result.totals.inactive == 600_000_000 + 100_000_000)
    }

    /// Without SpringBoard's lines, UIKit's launch line (`0 -> 1024`) after the app was seen in a UI state
    /// starts a new process; so does a new pid in runningboardd's name for the process.
    @Test(arguments: [
        "default\t10:10:00.000000+0000\tApp\tDeactivation reason added: 10; deactivation reasons: 0 -> 1024; animating application lifecycle event: 0",
        "default\t10:10:00.000000+0000\trunningboardd\t[app<com.example.App(U)>:200] Set jetsam priority to 100 [0] flag[1]",
    ])
    func aNewLaunchLineOrPidIsANewProcess(line: String) {
        let text = """
            default\t10:00:00.000000+0000\trunningboardd\t[app<com.example.App(U)>:100] Set jetsam priority to 100 [0] flag[1]
            default\t10:00:01.000000+0000\tApp\tDeactivation reason added: 11; deactivation reasons: 4097 -> 6145; animating application lifecycle event: 0
            default\t10:00:02.000000+0000\tApp\tCreated background task <_UIBackgroundTaskInfo: 0x1>: taskID = 7, taskName = upload, creationTime = 1 (elapsed = 0).
            \(line)
            default\t10:10:01.000000+0000\tApp\tEnding background task with UIBackgroundTaskIdentifier: 7
            """
        let (_, events) = ImportFixtures.importText(text, AppSelection(process: "App", bundleID: "com.example.App"))
        let launches = events.filter { $0.kind == .processLaunch }
        #expect(launches.count == 2)
        #expect(launches.first?.pid == 100)
        // The end of task 7 comes from the new process, which never created it: it closes nothing of the old one.
        #expect(
            !events.contains {
                $0.kind == .taskEnd && $0.t > launches[1].t && $0.attribute("begun_before_capture") == nil
            })
    }

    /// Between the launch and the first activation the app is inactive: UIKit's reason 10 (`0 -> 1024`).
    @Test func theLaunchIsInactiveNotBackground() {
        let text = """
            default\t10:00:00.000000+0000\tApp\tDeactivation reason added: 10; deactivation reasons: 0 -> 1024; animating application lifecycle event: 0
            default\t10:00:00.200000+0000\tApp\tDeactivation reason added: 11; deactivation reasons: 1024 -> 3072; animating application lifecycle event: 1
            default\t10:00:00.300000+0000\tApp\tDeactivation reason removed: 11; deactivation reasons: 3072 -> 1024; animating application lifecycle event: 1
            default\t10:00:00.500000+0000\tApp\tDeactivation reason removed: 10; deactivation reasons: 1024 -> 0; animating application lifecycle event: 0
            """
        let (importer, events) = ImportFixtures.importText(text, AppSelection(process: "App"))
        #expect(events.map(\.eventName) == ["process.launch", "app.didBecomeActive"])
        #expect(events[0].attribute("ui_state") == .string("inactive"))
        let result = Self.analyze(importer, events)
        #expect(result.totals.inactive == 500_000_000)
        #expect(result.totals.background == 0)
    }

    /// With nothing telling the redacted tasks' numbers, the numbers pairing the most ends are taken, and an
    /// end whose task began before the capture is kept as such.
    @Test func withoutAHandlerTheEndsDecideTheNumbers() {
        let text = """
            default\t10:00:00.000000+0000\tApp\tDeactivation reason added: 11; deactivation reasons: 4097 -> 6145; animating application lifecycle event: 0
            default\t10:00:00.100000+0000\tApp\tCreated background task <private>.
            default\t10:00:00.200000+0000\tApp\tEnding background task with UIBackgroundTaskIdentifier: 2
            default\t10:00:00.300000+0000\tApp\tEnding background task with UIBackgroundTaskIdentifier: 9
            """
        let (_, events) = ImportFixtures.importText(text, AppSelection(process: "App"))
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 1, reason: "unknown"),
                Derived("app.didEnterBackground", t: 0, line: 1),
                Derived("task.begin", t: 100_000_000, line: 2, task: 9),
                Derived("task.end", t: 200_000_000, line: 3, task: 2),
                Derived("task.end", t: 300_000_000, line: 4, task: 9),
            ])
        #expect(events[3].attribute("begun_before_capture") == .bool(true))
    }

    /// Lines lost in the other directions: the app in the background, then a line whose previous mask no longer
    /// holds reason 11 (it came to the foreground in the lines lost); inactive, then a line from no reasons (it
    /// became active in them). Each transition the old mask shows is derived at the line, before the line's own.
    @Test func linesLostWhileComingBackAndBecomingActive() {
        let line = { (time: String, text: String) in "default\t10:00:\(time)+0000\tApp\tDeactivation reason \(text)" }
        let text = [
            line(
                "00.000000", "added: 11; deactivation reasons: 4096 -> 6144; animating application lifecycle event: 1"),
            // Lost: reason 11 removed (6144 -> 4096).
            line("05.000000", "removed: 12; deactivation reasons: 4096 -> 0; animating application lifecycle event: 1"),
            line("06.000000", "added: 12; deactivation reasons: 0 -> 4096; animating application lifecycle event: 1"),
            // Lost: reason 12 removed (4096 -> 0).
            line("09.000000", "added: 5; deactivation reasons: 0 -> 32; animating application lifecycle event: 1"),
        ].joined(separator: "\n")
        let (_, events) = ImportFixtures.importText(text, AppSelection(process: "App"))
        let s: Int64 = 1_000_000_000
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 1, reason: "unknown"),
                Derived("app.didEnterBackground", t: 0, line: 1),  // reason 11 added to 4096: background, not active
                Derived("app.willEnterForeground", t: 5 * s, line: 2),  // lost: 4096 has no reason 11
                Derived("app.didBecomeActive", t: 5 * s, line: 2),  // the line's own: 4096 -> 0
                Derived("app.willResignActive", t: 6 * s, line: 3),
                Derived("app.didBecomeActive", t: 9 * s, line: 4),  // lost: the mask was 0 again
                Derived("app.willResignActive", t: 9 * s, line: 4),  // the line's own: 0 -> 32
            ])
        let lost = events.map { $0.attribute("lost_from_capture") == .bool(true) }
        #expect(lost == [false, false, true, false, false, true, false])
    }

    static func analyze(_ importer: LogImporter, _ events: [LifecycleEvent]) -> AnalysisResult {
        let analyzer = TraceAnalyzer(
            file: "capture", header: importer.header(app: nil), configuration: .defaults,
            models: LifecycleModel.builtIn)
        for event in events { analyzer.consume(event) }
        return analyzer.finish()
    }
}
