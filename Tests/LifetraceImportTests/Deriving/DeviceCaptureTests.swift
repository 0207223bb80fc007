import LifetraceAnalysis
import LifetraceCore
import Testing

@testable import LifetraceImport

/// Captures from real devices and from Xcode's console: idevicesyslog in its older layout (the device's name
/// as a column) with and without the library column, Xcode's debug console pasted among prose, and a Console
/// capture of a crash. The facts each test expects were read off the fixtures' lines by hand
/// (Fixtures/README.md names their sources).
@Suite struct DeviceCaptureTests {
    static let s: Int64 = 1_000_000_000

    /// idevicesyslog, iOS 10: the app launched in the background for locationd, with apsd's own dated lines
    /// quoted inside the first messages.
    @Test func idevicesyslogBackgroundLaunchWithQuotedDates() throws {
        let (importer, events) = try ImportFixtures.importFixture(
            "location-launch.idevicesyslog.log",
            AppSelection(
                process: "GettingLocationWhenSuspended", bundleID: "com.mobileoop.GettingLocationWhenSuspended"),
            TimeAssumptions(year: 2017, zone: "-0400"))
        // Origin 11:42:42 (line 3, apsd); assertiond submits the app's job at 11:42:43, after SpringBoard's
        // `suspended-activation` for locationd.
        #expect(events.map(Derived.init) == [Derived("process.launch", t: 1 * Self.s, line: 17, reason: "location")])
        #expect(events[0].attribute("ui_state") == .string("background"))
        #expect(importer.format == .idevicesyslog)
        #expect(importer.entries == 34)
        #expect(importer.skipped.lines == 2)
        #expect(importer.skipped.prefixes == 0)
        #expect(importer.notUnderstood.count == 0)
        let header = importer.header(app: nil)
        // 2017-08-07 11:42:42 at -04:00 is 15:42:42 UTC: 1502120562 s since 1970 (`date -u -d ... +%s`).
        #expect(header.startUnixNanoseconds == 1_502_120_562_000_000_000)
        #expect(header[.timeZone] == .string("-0400"))
        #expect(header[.yearAssumed] == .int(2017))
        #expect(header[.timeZoneAssumed] == .bool(true))
        #expect(header[.logFormat] == .string("idevicesyslog"))
        let result = MidSessionCaptureTests.analyze(importer, events)
        #expect(result.findings.isEmpty)
        #expect(result.processes.map(\.end) == [.traceEnded])
        #expect(result.processes.map(\.launchReason) == ["location"])
    }

    /// The first entry's columns: the device's name is a column, the library in parentheses is dropped, and the
    /// quoted date is the message's, not an entry.
    @Test func theOlderLayoutsColumnsAreRead() throws {
        let text = try ImportFixtures.text("location-launch.idevicesyslog.log")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let (_, entries) = LogLineParserTests.parse(lines, TimeAssumptions(year: 2017, zone: "-0400"))
        let first = try #require(entries.first)
        #expect(first.number == 3)
        #expect(first.process == "apsd")
        #expect(first.pid == 84)
        #expect(first.message.hasPrefix("2017-08-07 11:42:42 -0400 apsd[84]: <APSDecayTimer"))
        let app = try #require(entries.first { $0.number == 23 })
        #expect(app.process == "GettingLocationWhenSuspended")
        #expect(app.pid == 3832)
        #expect(app.message == "didFinishLaunchingWithOptions")
        #expect(app.timestamp - first.timestamp == 2 * Self.s)
    }

    /// idevicesyslog, iOS 8, during an Appium run: the app is killed (launchd's job exits on signal 9) and
    /// relaunched twice, each time with a new pid.
    @Test func idevicesyslogKillsAndRelaunches() throws {
        let (importer, events) = try ImportFixtures.importFixture(
            "weather-relaunch.idevicesyslog.log", AppSelection(process: "TheWeather", bundleID: "com.weather.TWC"),
            TimeAssumptions(year: 2016))
        // Origin Mar 3 09:38:19 (line 21).
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 21, reason: "unknown"),
                Derived("process.exit", t: 3746 * Self.s, line: 45, reason: "SIGKILL"),  // 10:40:45, `Killed: 9`
                Derived("process.launch", t: 3853 * Self.s, line: 57, reason: "unknown"),  // 10:42:32
                Derived("process.exit", t: 3972 * Self.s, line: 65, reason: "SIGKILL"),  // 10:44:31
                Derived("process.launch", t: 3981 * Self.s, line: 73, reason: "unknown"),  // 10:44:40
            ])
        #expect(events.filter { $0.kind == .processLaunch }.map(\.pid) == [470, 484, 490])
        #expect(importer.entries == 51)
        // Two comments and ideviceinstaller's list of 15 lines; not the `[connected]` banner, not the tab-only
        // line inside the first message.
        #expect(importer.skipped.lines == 17)
        let header = importer.header(app: nil)
        // No zone printed, none given: UTC, and the header says it was taken. 2016-03-03 09:38:19 UTC is
        // 1456997899 s since 1970.
        #expect(header[.timeZone] == .string("+0000"))
        #expect(header[.timeZoneAssumed] == .bool(true))
        #expect(header.startUnixNanoseconds == 1_456_997_899_000_000_000)
        #expect(importer.assumed.year == 2016)
        #expect(importer.assumed.zone == "+0000")
        let result = MidSessionCaptureTests.analyze(importer, events)
        #expect(result.findings.isEmpty)
        #expect(result.processes.map(\.end) == [.endedInBackground, .endedInBackground, .traceEnded])
    }

    /// Xcode 7's Devices window console (the device syslog layout), 2015: UIKit passes a memory warning to the
    /// app, SpringBoard says the app `was killed by jetsam.`, and the system relaunches it for Bluetooth as a new
    /// pid.
    @Test func aDeviceConsoleJetsamKillAndRelaunch() throws {
        let (importer, events) = try ImportFixtures.importFixture(
            "beacon-jetsam.device-console.log",
            AppSelection(process: "EddyBckgrnd", bundleID: "io.heypiotr.EddyBckgrnd"),
            TimeAssumptions(year: 2015, zone: "+0100"))
        // Origin Dec 9 09:14:50 (line 3, the app's `Received memory warning.`).
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 3, reason: "unknown"),  // pid 32072, its launch not captured
                Derived("app.didReceiveMemoryWarning", t: 0, line: 3),
                Derived("process.exit", t: 11 * Self.s, line: 4, reason: "jetsam"),  // 09:15:01, SpringBoard
                // 09:15:04, pid 32131: that the system started it for Bluetooth only the app's own print of its launch
                // options says (`UIApplicationLaunchOptionsBluetoothCentralsKey = (`), not a system line.
                Derived("process.launch", t: 14 * Self.s, line: 5, reason: "unknown"),
            ])
        #expect(events.filter { $0.kind == .processLaunch }.map(\.pid) == [32072, 32131])
        #expect(importer.format == .idevicesyslog)
        #expect(importer.entries == 7)
        #expect(importer.skipped.lines == 2)
        #expect(importer.notUnderstood.count == 0)
        let header = importer.header(app: nil)
        // 2015-12-09 09:14:50 at +01:00 is 08:14:50 UTC: 1449648890 s since 1970.
        #expect(header.startUnixNanoseconds == 1_449_648_890_000_000_000)
        #expect(header[.yearAssumed] == .int(2015))
        let result = MidSessionCaptureTests.analyze(importer, events)
        #expect(result.findings.isEmpty)
        #expect(result.processes.map(\.end) == [.killedByJetsam, .traceEnded])
    }

    /// idevicesyslog of libimobiledevice 1.3 (no device column, whole seconds) during an Appium run: the capture
    /// begins with the app active, a system alert makes it inactive for a second, the capture loses the lines
    /// in which it left the foreground (line 30's previous mask says so), it comes back, and a new pid follows.
    @Test func idevicesyslogWithoutTheDeviceColumnAndWithLostLines() throws {
        let (importer, events) = try ImportFixtures.importFixture(
            "wallet-relaunch.idevicesyslog.log",
            AppSelection(process: "EudiWallet", bundleID: "eu.europa.ec.euidi.dev"),
            TimeAssumptions(year: 2025, zone: "+0300"))
        // Origin May 14 14:29:57 (line 4, the app's first line).
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 4, reason: "unknown"),
                Derived("task.begin", t: 1 * Self.s, line: 9, task: 3),  // redacted; line 10 ends it as 3
                Derived("task.end", t: 1 * Self.s, line: 10, task: 3),
                Derived("app.didBecomeActive", t: 19 * Self.s, line: 15),  // 14:30:16, `0 -> 8192`: it was active
                Derived("app.willResignActive", t: 19 * Self.s, line: 15),  // the system alert, reason 13
                Derived("app.didBecomeActive", t: 20 * Self.s, line: 21),  // 14:30:17, `4096 -> 0`
                // 14:31:07, runningboardd's `Resuming task.`: the process had been suspended in the lines lost.
                Derived("process.suspend", t: 70 * Self.s, line: 29),
                Derived("process.resume", t: 70 * Self.s, line: 29),
                Derived("app.willResignActive", t: 70 * Self.s, line: 30),  // 14:31:07, `6144 -> 6176`: it had left
                Derived("app.didEnterBackground", t: 70 * Self.s, line: 30),  // the foreground in the lines lost
                Derived("app.willEnterForeground", t: 70 * Self.s, line: 34),  // reason 11 removed
                Derived("app.didBecomeActive", t: 70 * Self.s, line: 39),  // `32 -> 0`
                Derived("app.willResignActive", t: 71 * Self.s, line: 41),  // 14:31:08, `0 -> 32`
                Derived("process.launch", t: 103 * Self.s, line: 50, reason: "unknown"),  // 14:31:40, pid 1117
            ])
        #expect(events.filter { $0.kind == .processLaunch }.map(\.pid) == [1111, 1117])
        #expect(events[1].attribute("task_id_inferred") == .bool(true))
        #expect(events[3].attribute("state_at_capture_start") == .bool(true))
        #expect(events.indices.filter { events[$0].attribute("lost_from_capture") == .bool(true) } == [8, 9])
        #expect(events[6].attribute("suspension_start_unknown") == .bool(true))
        #expect(importer.format == .idevicesyslog)
        // Lines 4-52 less the four lines that continue testmanagerd's message on line 43.
        #expect(importer.entries == 45)
        #expect(importer.skipped.lines == 2)  // the two comments; not the `[connected]` banner
        #expect(importer.notUnderstood.count == 0)
        let header = importer.header(app: nil)
        // 2025-05-14 14:29:57 at +03:00 (apsd's own dates on line 12 say the year and the zone) is 11:29:57 UTC:
        // 1747222197 s since 1970.
        #expect(header.startUnixNanoseconds == 1_747_222_197_000_000_000)
        #expect(header[.timeZone] == .string("+0300"))
        let result = MidSessionCaptureTests.analyze(importer, events)
        #expect(result.findings.isEmpty)
        #expect(result.processes.count == 2)
        // Another app's name: no event, and the processes the capture holds, counted by hand.
        let (other, none) = try ImportFixtures.importFixture(
            "wallet-relaunch.idevicesyslog.log", AppSelection(process: "Maps"),
            TimeAssumptions(year: 2025, zone: "+0300"))
        #expect(none.isEmpty)
        #expect(
            other.processesSeen.map { "\($0.process) \($0.entries)" } == [
                "EudiWallet 23", "SpringBoard 11", "runningboardd 6", "ScreenTimeAgent 1", "apsd 1", "biomed 1",
                "pasted 1",
                "testmanagerd 1",
            ])
    }

    /// The same capture as a terminal shows it (idevicesyslog colours its columns: `ESC[1;36m` ... `ESC[m`) and as
    /// an editor on Windows saves it (a byte-order mark before its first line): the same events from the same lines.
    @Test func terminalColoursAndAByteOrderMarkChangeNothing() throws {
        let selection = AppSelection(process: "EudiWallet", bundleID: "eu.europa.ec.euidi.dev")
        let assumptions = TimeAssumptions(year: 2025, zone: "+0300")
        let text = try ImportFixtures.text("wallet-relaunch.idevicesyslog.log")
        let (_, plain) = ImportFixtures.importText(text, selection, assumptions)
        let escape = "\u{1B}"
        let coloured = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            // `May 14 14:30:16 SpringBoard(UIKitCore)[36] <Notice>: ...`: the stamp dim, the process bold cyan.
            guard line.count > 16, line.first?.isLetter == true, line.dropFirst(3).first == " " else {
                return String(line)
            }
            let stamp = line.prefix(15)
            let rest = line.dropFirst(16)
            let process = rest.prefix { $0 != "(" && $0 != "[" }
            return
                "\(escape)[2m\(stamp)\(escape)[m \(escape)[1;36m\(process)\(escape)[m\(rest.dropFirst(process.count))\(escape)[m"
        }
        #expect(coloured.filter { $0.contains(escape) }.count == 45)
        let (_, fromTerminal) = ImportFixtures.importText(coloured.joined(separator: "\n"), selection, assumptions)
        #expect(fromTerminal.map(Derived.init) == plain.map(Derived.init))
        let (_, marked) = ImportFixtures.importText("\u{FEFF}" + text, selection, assumptions)
        #expect(marked.map(Derived.init) == plain.map(Derived.init))
        #expect(plain.count == 14)
    }

    /// The log relay interleaves processes: a line of pid 1111 after pid 1117's first (line 50) is a late line of the
    /// earlier process, counted and not read, and starts no third process; pid 1117's next line is its own.
    @Test func aLateLineOfAnEarlierProcessStartsNoOther() throws {
        let selection = AppSelection(process: "EudiWallet", bundleID: "eu.europa.ec.euidi.dev")
        let assumptions = TimeAssumptions(year: 2025, zone: "+0300")
        var lines = try ImportFixtures.text("wallet-relaunch.idevicesyslog.log").split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[49].contains("EudiWallet(XCTAutomationSupport)[1117]"))
        lines.insert(
            contentsOf: [
                "May 14 14:31:40 EudiWallet(UIKitCore)[1111] <Notice>: Deactivation reason added: 11; deactivation reasons: 4128 -> 6176; animating application lifecycle event: 1",
                "May 14 14:31:40 EudiWallet(UIKitCore)[1117] <Notice>: Deactivation reason removed: 10; deactivation reasons: 1024 -> 0; animating application lifecycle event: 0",
            ], at: 50)
        let (importer, events) = ImportFixtures.importText(lines.joined(separator: "\n"), selection, assumptions)
        #expect(events.filter { $0.kind == .processLaunch }.map(\.pid) == [1111, 1117])
        #expect(importer.lateLines.count == 1)
        #expect(importer.lateLines.first == 51)
        // Line 52, pid 1117's `1024 -> 0`: the launched process becomes active at 14:31:40 (+103 s).
        #expect(events.last.map(Derived.init) == Derived("app.didBecomeActive", t: 103 * Self.s, line: 52))
    }

    /// A byte-order mark right before the first entry (the fixture's lines from its first entry on) is no text of it.
    @Test func aByteOrderMarkBeforeTheFirstEntryIsNoText() throws {
        let selection = AppSelection(process: "EudiWallet", bundleID: "eu.europa.ec.euidi.dev")
        let assumptions = TimeAssumptions(year: 2025, zone: "+0300")
        let lines = try ImportFixtures.text("wallet-relaunch.idevicesyslog.log").split(
            separator: "\n", omittingEmptySubsequences: false)
        let fromFirstEntry = lines.dropFirst(3).joined(separator: "\n")
        let (unmarkedImporter, plain) = ImportFixtures.importText(fromFirstEntry, selection, assumptions)
        let (importer, marked) = ImportFixtures.importText("\u{FEFF}" + fromFirstEntry, selection, assumptions)
        #expect(marked.map(Derived.init) == plain.map(Derived.init))
        #expect(plain.first.map(Derived.init) == Derived("process.launch", t: 0, line: 1, reason: "unknown"))
        #expect(importer.entries == unmarkedImporter.entries)
        #expect(importer.skipped.lines == 0)
    }

    /// Xcode's console in a blog post: a crash banner, then another process whose simulated BGTaskScheduler
    /// task starts before the log says its kind.
    @Test func xcodeConsoleCrashAndSimulatedRefreshTask() throws {
        let (importer, events) = try ImportFixtures.importFixture(
            "bgtask.xcode.md", AppSelection(process: "TestBgTask"))
        // Origin 08:24:40.648838 (line 5).
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 5, reason: "unknown"),
                Derived("process.exit", t: 0, line: 5, reason: "uncaught-exception"),
                Derived("process.launch", t: 1_757_979_829_000, line: 16, reason: "unknown"),  // 08:53:58.628667
                // 08:54:03.669153, `Starting simulated task: <decode: missing data>`: a refresh task, as its completion says.
                Derived(
                    "bg.refresh.begin", t: 1_763_020_315_000, line: 19, task: ScheduledTasks.base + 1,
                    taskName: "com.example.bgRefresh"),
                Derived(
                    "bg.refresh.end", t: 1_766_911_859_000, line: 20, task: ScheduledTasks.base + 1,
                    taskName: "com.example.bgRefresh"),  // 08:54:07.560697
            ])
        #expect(events.filter { $0.kind == .processLaunch }.map(\.pid) == [275, 381])
        #expect(importer.format == .xcode)
        #expect(importer.entries == 7)
        #expect(importer.skipped.lines == 10)
        #expect(importer.notUnderstood.count == 0)
        let header = importer.header(app: nil)
        // 2020-10-11 08:24:40.648838 at +07:00 is 01:24:40.648838 UTC: 1602379480 s since 1970.
        #expect(header.startUnixNanoseconds == 1_602_379_480_648_838_000)
        #expect(header[.timeZone] == .string("+0700"))
        #expect(header[.timeZoneAssumed] == nil)
        #expect(header[.yearAssumed] == nil)
        let result = MidSessionCaptureTests.analyze(importer, events)
        #expect(result.findings.isEmpty)
        #expect(result.processes.count == 2)
    }

    /// The same console lines without the post's prose and fences: the same events.
    @Test func xcodeConsoleWithoutProseReadsTheSame() throws {
        let text = try ImportFixtures.text("bgtask.xcode.md")
        let console = text.split(separator: "\n").filter { $0.hasPrefix("2020-") || $0.hasPrefix("(lldb)") }
        #expect(console.count == 8)
        let (importer, events) = ImportFixtures.importText(
            console.joined(separator: "\n"), AppSelection(process: "TestBgTask"))
        let (_, pasted) = try ImportFixtures.importFixture("bgtask.xcode.md", AppSelection(process: "TestBgTask"))
        #expect(
            events.map { [$0.eventName, "\($0.t)", $0.reason ?? "", $0.name ?? ""] }
                == pasted.map { [$0.eventName, "\($0.t)", $0.reason ?? "", $0.name ?? ""] })
        #expect(importer.skipped.lines == 0)
        #expect(importer.entries == 7)
    }

    /// A Console capture of a crash right after a cold launch: the app's own uncaught-exception line ends the
    /// process; runningboardd's and SpringBoard's reports of that end that follow derive nothing more.
    @Test func consoleCrashAfterLaunch() throws {
        let (importer, events) = try ImportFixtures.importFixture(
            "foreground-crash.console.log",
            AppSelection(process: "MobileJarvisNative", bundleID: "com.hightowerai.MobileJarvisNative"))
        // Origin 23:30:38.553942 (line 3).
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 4_558_191_000, line: 4, reason: "user"),
                Derived("task.begin", t: 5_013_613_000, line: 12, task: 1),
                Derived("task.begin", t: 5_046_314_000, line: 14, task: 2),
                Derived("task.end", t: 5_143_301_000, line: 20, task: 1),
                Derived("app.didBecomeActive", t: 5_144_909_000, line: 23),
                Derived("process.exit", t: 6_235_991_000, line: 24, reason: "uncaught-exception"),
            ])
        #expect(importer.entries == 26)
        #expect(importer.notUnderstood.count == 0)
        let result = MidSessionCaptureTests.analyze(importer, events)
        // Task 2 (line 14) is open when the app's uncaught exception (line 24) ends the process, 1.19 s after it
        // began (6.235991 s - 5.046314 s), in the foreground: no deadline of its had passed, so the process crashed
        // and no task leaked (no LT041). No finding at all; the end's basis names the task.
        #expect(result.findings.map(\.rule.id.rawValue) == [])
        #expect(result.processes.map(\.end) == [.crashed])
        #expect(
            result.processes.map(\.endBasis) == [
                "the process exited with uncaught-exception, a crash, with 1 background task open for 1.19s, its deadline not shown passing (not a finding)"
            ])
        #expect(result.totals.suspended == 0)
    }
}
