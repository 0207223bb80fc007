import LifetraceAnalysis
import LifetraceCore
import Testing

@testable import LifetraceImport

/// Two ends SpringBoard tells apart, from one real capture: the launch watchdog's kill (`Forcing crash report of
/// ... failed to launch after 20.00s`) and the process's own exit (`exited voluntarily.`). The fixture's facts
/// were read off its lines by hand (Fixtures/README.md).
@Suite struct WatchdogAndExitTests {
    static let s: Int64 = 1_000_000_000
    static let app = AppSelection(process: "pvz-portable", bundleID: "io.github.wszqkzqk.pvz-portable")

    /// idevicesyslog, iOS 9.3.5 on an iPad: pid 1213, launched by debugserver, never logs a line of its own and
    /// is killed by SpringBoard's launch watchdog 20 s later; the next launch's job fails to start (its `exited
    /// voluntarily.` ends no process); pid 1223 starts, logs, and exits on its own.
    @Test func theLaunchWatchdogsKillThenAVoluntaryExit() throws {
        let (importer, events) = try ImportFixtures.importFixture(
            "pvz-watchdog-exit.idevicesyslog.log", Self.app, TimeAssumptions(year: 2026, zone: "-0700"))
        // Origin line 10, 13:50:53 (debugserver's lines 6-9, 13:50:33, are not entries: the pid and the level come
        // on the tab-indented line after the program's name).
        #expect(
            events.map(Derived.init) == [
                // SpringBoard's watchdog names pid 1213, which no line showed before: its start is placed here.
                Derived("process.launch", t: 0, line: 10, reason: "unknown"),
                Derived("process.exit", t: 0, line: 10, reason: "watchdog"),  // `failed to launch after 20.00s`
                // Lines 11 and 14 (launchd's `Killed: 9`, `exited abnormally via signal`) are the same end; lines
                // 15-20 are a job that never ran (`Bootstrapping failed ... pid: -1`), its `exited voluntarily.` too.
                Derived("process.launch", t: 1 * Self.s, line: 21, reason: "unknown"),  // 13:50:54, pid 1223
                Derived("process.exit", t: 6 * Self.s, line: 33, reason: "exit"),  // 13:50:59, `exited voluntarily.`
            ])
        // The launches carry the pid (an exit carries none: it ends the process before it).
        #expect(events.map(\.pid) == [1213, nil, 1223, nil])
        try #require(events.count == 4)
        // `launchIntent: foreground-interactive`: pid 1213 was being launched into the foreground.
        #expect(events[0].attribute("ui_state") == .string("inactive"))
        #expect(events[2].attribute("ui_state") == nil)
        #expect(importer.format == .idevicesyslog)
        #expect(importer.entries == 25)
        #expect(importer.skipped.lines == 6)  // the two comments, debugserver's four lines
        #expect(importer.notUnderstood.count == 0)
        let header = importer.header(app: nil)
        // 2026-07-06 13:50:53 at -07:00 is 20:50:53 UTC: 1783371053 s since 1970 (`date -u -d ... +%s`).
        #expect(header.startUnixNanoseconds == 1_783_371_053_000_000_000)
        #expect(header[.timeZone] == .string("-0700"))
        #expect(header[.yearAssumed] == .int(2026))
        let result = MidSessionCaptureTests.analyze(importer, events)
        #expect(result.findings.isEmpty)
        // Killed while launching into the foreground; then the process's own exit.
        #expect(result.processes.map(\.end) == [.endedInForeground, .exited])
        // SpringBoard's `exited voluntarily.` is the log's word, not a line the process wrote itself.
        #expect(result.processes.last?.endBasis == "the system's log shows the process exiting on its own")
    }

    /// SpringBoard's watchdog line of a process already running ends it (no second launch); of another app, or
    /// with another description (`was suspended with locked system files`, the 0xdead10cc kill), it says nothing.
    @Test func theWatchdogLineEndsTheRunningProcessOnly() {
        func watchdog(_ bundle: String) -> String {
            "Forcing crash report of <FBApplicationProcess: 0x1b26fd30; pvz-portable; pid: 1213> (reason: 1, "
                + "description: \(bundle) failed to launch after 20.00s (launchIntent: foreground-interactive))"
        }
        let text = """
            Jul  6 13:50:40 pvz-portable[1213] <Warning>: [PvZ][STARTUP] /var/mobile
            Jul  6 13:50:45 SpringBoard[783] <Warning>: \(watchdog("io.github.wszqkzqk.other"))
            Jul  6 13:50:46 SpringBoard[783] <Warning>: Forcing crash report of <FBApplicationProcess: 0x1394b57d0; pvz-portable; pid: 1213> (reason: 4, description: <FBApplicationProcess: 0x1394b57d0; pvz-portable; pid: 1213> was suspended with locked system files:
            Jul  6 13:50:53 SpringBoard[783] <Warning>: \(watchdog("io.github.wszqkzqk.pvz-portable"))
            Jul  6 13:50:53 com.apple.xpc.launchd[1] (UIKitApplication:io.github.wszqkzqk.pvz-portable[0x45f7][1213]) <Notice>: Service exited due to signal: Killed: 9
            """
        let (importer, events) = ImportFixtures.importText(text, Self.app, TimeAssumptions(year: 2026, zone: "-0700"))
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 1, reason: "unknown"),
                Derived("process.exit", t: 13 * Self.s, line: 4, reason: "watchdog"),
            ])
        #expect(events.map(\.pid) == [1213, nil])
        #expect(importer.notUnderstood.count == 0)
    }
}
