import LifetraceAnalysis
import LifetraceCore
@testable import LifetraceImport
import Testing

/// How a process ends, and the lines that look like an end but are not: a voluntary exit, an installation's kill
/// of a process already gone, a failed suspension; and a resume whose suspension the capture lost.
@Suite struct EndLineTests {
    static let s: Int64 = 1_000_000_000
    static let app = AppSelection(process: "TheWeather", bundleID: "com.weather.TWC")

    /// SpringBoard's `exited voluntarily.` is the process's own exit; a later `Killing ... for app installation`
    /// and assertiond's `pid_suspend failed ... No such process` of the gone process derive nothing.
    @Test func aVoluntaryExitThenAnInstallationsKill() {
        let text = """
            Mar  3 10:40:00 iPod TheWeather[470] <Warning>: didFinishLaunching
            Mar  3 10:40:45 iPod SpringBoard[50] <Warning>: Application 'UIKitApplication:com.weather.TWC[0x942c]' exited voluntarily.
            Mar  3 10:40:45 iPod assertiond[60] <Warning>: pid_suspend failed for <BKNewProcess: 0x12ee20b50; com.weather.TWC; pid: 470; hostpid: -1>: No such process
            Mar  3 10:41:00 iPod SpringBoard[50] <Warning>: Killing com.weather.TWC for app installation
            """
        let (importer, events) = ImportFixtures.importText(text, Self.app, TimeAssumptions(year: 2016))
        #expect(events.map(Derived.init) == [
            Derived("process.launch", t: 0, line: 1, reason: "unknown"),
            Derived("process.exit", t: 45 * Self.s, line: 2, reason: "exit"),
        ])
        let result = MidSessionCaptureTests.analyze(importer, events)
        #expect(result.processes.map(\.end) == [.exited])
    }

    /// An installation's kill of a running process ends it; the launchd line of the same end after it adds nothing.
    @Test func anInstallationsKillOfARunningProcess() {
        let text = """
            Mar  3 10:40:00 iPod TheWeather[470] <Warning>: didFinishLaunching
            Mar  3 10:41:00 iPod SpringBoard[50] <Warning>: Killing com.weather.TWC for app installation
            Mar  3 10:41:00 iPod com.apple.xpc.launchd[1] (UIKitApplication:com.weather.TWC[0x942c][470]) <Notice>: Service exited due to signal: Killed: 9
            Mar  3 10:41:05 iPod TheWeather[490] <Warning>: didFinishLaunching
            """
        let (_, events) = ImportFixtures.importText(text, Self.app, TimeAssumptions(year: 2016))
        #expect(events.map(Derived.init) == [
            Derived("process.launch", t: 0, line: 1, reason: "unknown"),
            Derived("process.exit", t: 60 * Self.s, line: 2, reason: "app-installation"),
            Derived("process.launch", t: 65 * Self.s, line: 4, reason: "unknown"),
        ])
        #expect(events.map(\.pid) == [470, nil, 490])
    }

    /// runningboardd resumes a process the capture never saw suspended: it was, from a time the capture lost;
    /// the suspension is placed at the resume, marked `suspension_start_unknown`.
    @Test func aResumeProvesALostSuspension() {
        let text = """
            Oct 10 13:17:45 App(UIKitCore)[812] <Notice>: Deactivation reason added: 11; deactivation reasons: 4097 -> 6145; animating application lifecycle event: 0
            Oct 10 13:18:50 runningboardd(RunningBoard)[33] <Notice>: [app<com.example.App(8A4C)>:812] Resuming task.
            """
        let (importer, events) = ImportFixtures.importText(text, AppSelection(process: "App", bundleID: "com.example.App"))
        #expect(events.map(Derived.init) == [
            Derived("process.launch", t: 0, line: 1, reason: "unknown"),
            Derived("app.didEnterBackground", t: 0, line: 1),
            Derived("process.suspend", t: 65 * Self.s, line: 2),
            Derived("process.resume", t: 65 * Self.s, line: 2),
        ])
        #expect(events[2].attribute("suspension_start_unknown") == .bool(true))
        #expect(MidSessionCaptureTests.analyze(importer, events).findings.isEmpty)
    }

    /// A capture with none of the app's lines is refused with the processes it saw (import's exit 2).
    @Test func aCaptureWithoutTheAppYieldsNoEvent() {
        let text = """
            Mar  3 10:40:45 iPod SpringBoard[50] <Warning>: Application 'UIKitApplication:com.weather.TWC[0x942c]' exited voluntarily.
            Mar  3 10:41:00 iPod SpringBoard[50] <Warning>: Killing com.weather.TWC for app installation
            Mar  3 10:41:01 iPod assertiond[60] <Warning>: pid_suspend failed for <BKNewProcess: 0x1; com.weather.TWC; pid: 470; hostpid: -1>: No such process
            """
        let (importer, events) = ImportFixtures.importText(text, Self.app, TimeAssumptions(year: 2016))
        #expect(events.isEmpty)
        #expect(importer.processesSeen.map(\.process) == ["SpringBoard", "assertiond"])
    }
}
