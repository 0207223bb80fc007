import LifetraceAnalysis
import LifetraceCore
import Testing

@testable import LifetraceImport

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
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 1, reason: "unknown"),
                Derived("process.exit", t: 45 * Self.s, line: 2, reason: "exit"),
            ])
        let result = MidSessionCaptureTests.analyze(importer, events)
        #expect(result.processes.map(\.end) == [.exited])
    }

    /// SpringBoard's `was killed by jetsam.` ends the app's process (`jetsam`: `check` says the kernel killed it);
    /// the same line of another app ends nothing, and only UIKit's exact `Received memory warning.` is the app's
    /// memory warning, not a message that mentions one.
    @Test func springBoardsJetsamLineAndUIKitsMemoryWarning() {
        let text = """
            Dec  9 09:14:40 iPhone TheWeather[470] <Warning>: Received memory warning. Clearing caches
            Dec  9 09:14:50 iPhone TheWeather[470] <Warning>: Received memory warning.
            Dec  9 09:14:55 iPhone SpringBoard[61] <Warning>: Application 'UIKitApplication:com.weather.TWCX[0xc435]' was killed by jetsam.
            Dec  9 09:15:01 iPhone SpringBoard[61] <Warning>: Application 'UIKitApplication:com.weather.TWC[0xc435]' was killed by jetsam.
            """
        let (importer, events) = ImportFixtures.importText(text, Self.app, TimeAssumptions(year: 2015))
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 1, reason: "unknown"),
                Derived("app.didReceiveMemoryWarning", t: 10 * Self.s, line: 2),
                Derived("process.exit", t: 21 * Self.s, line: 4, reason: "jetsam"),
            ])
        let result = MidSessionCaptureTests.analyze(importer, events)
        #expect(result.processes.map(\.end) == [.killedByJetsam])
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
        #expect(
            events.map(Derived.init) == [
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
        let (importer, events) = ImportFixtures.importText(
            text, AppSelection(process: "App", bundleID: "com.example.App"))
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 1, reason: "unknown"),
                Derived("app.didEnterBackground", t: 0, line: 1),
                Derived("process.suspend", t: 65 * Self.s, line: 2),
                Derived("process.resume", t: 65 * Self.s, line: 2),
            ])
        #expect(events[2].attribute("suspension_start_unknown") == .bool(true))
        #expect(MidSessionCaptureTests.analyze(importer, events).findings.isEmpty)
    }

    /// An iPad's syslog (iOS 5, 2012, quoted in a public jailbreak write-up: code-search file 36358429891): pid
    /// 119 throws, ReportCrash writes its report, pid 142 is the next run. Without the banner, the report alone
    /// says the process crashed.
    @Test(arguments: [true, false])
    func aCrashReportEndsTheProcess(withBanner: Bool) {
        var lines = [
            "Jan 21 02:17:28 unknown mc_mobile_tunnel[116] <Notice>: (Note ) MC: mc_mobile_tunnel starting.",
            "Jan 21 02:17:29 unknown BackupAgent2[119] <Error>: -[__NSCFConstantString containsObject:]: unrecognized selector sent to instance 0x3f95f9d0",
            "Jan 21 02:17:29 unknown BackupAgent2[119] <Error>: *** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: '-[__NSCFConstantString containsObject:]: unrecognized selector sent to instance 0x3f95f9d0'",
            "\t*** First throw call stack:",
            "\t(0x37d518bf 0x3789d1e5 0x37d54acb 0x37d53945 0x37cae680 0xd7b7d 0xd7f55 0x309d68bb 0x309db969 0x37d1c555 0x37d25553 0x37d254f5 0x37d24343 0x37ca74dd 0x37d2447b 0xd86cd 0xd6a25 0xb9ff4)",
            "Jan 21 02:17:30 unknown ReportCrash[120] <Notice>: Formulating crash report for process BackupAgent2[119]",
            "Jan 21 02:17:30 unknown ReportCrash[120] <Error>: Saved crashreport to /Library/Logs/CrashReporter/BackupAgent2_2012-01-21-021729_iPad.plist using uid: 0 gid: 0, synthetic_euid: 0 egid: 0",
            "Jan 21 02:17:34 unknown BackupAgent2[142] <Warning>: WARNING: Starting backup",
        ]
        if !withBanner { lines.removeSubrange(2...4) }
        let (importer, events) = ImportFixtures.importText(
            lines.joined(separator: "\n"), AppSelection(process: "BackupAgent2"),
            TimeAssumptions(year: 2012, zone: "UTC"))
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 1 * Self.s, line: 2, reason: "unknown"),
                withBanner
                    ? Derived("process.exit", t: 1 * Self.s, line: 3, reason: "uncaught-exception")
                    : Derived("process.exit", t: 2 * Self.s, line: 3, reason: "crash-report"),
                Derived("process.launch", t: 6 * Self.s, line: withBanner ? 8 : 5, reason: "unknown"),
            ])
        #expect(events.filter { $0.kind == .processLaunch }.map(\.pid) == [119, 142])
        let result = MidSessionCaptureTests.analyze(importer, events)
        #expect(result.processes.map(\.end) == [.crashed, .traceEnded])
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
