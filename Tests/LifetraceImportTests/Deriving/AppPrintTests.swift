import LifetraceAnalysis
import LifetraceCore
import Testing

@testable import LifetraceImport

/// The callbacks an app prints itself: a message that is exactly a callback's name becomes its event, marked
/// `from_app_print`; a message that only mentions one does not; a print and the system's line of one transition
/// are one event. The fixture's facts were read off its lines by hand (Fixtures/README.md).
@Suite struct AppPrintTests {
    static let ms: Int64 = 1_000_000
    static let app = AppSelection(process: "App", bundleID: "com.example.App")

    /// Xcode 7's console of HBNavigationBarDemo, `NSLog(@"%s", __PRETTY_FUNCTION__)` in each delegate method:
    /// launched, active, to the background and back.
    @Test func objectiveCPrettyFunctionPrintsInXcodesConsole() throws {
        let (importer, events) = try ImportFixtures.importFixture(
            "app-prints.xcode.md", AppSelection(process: "HBNavigationBarDemo"),
            TimeAssumptions(year: 2015, zone: "+0800"))
        // Origin line 4, 17:47:05.362; each time below is the line's minus it.
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 4, reason: "unknown"),
                Derived("app.didFinishLaunching", t: 0, line: 4),
                Derived("app.didBecomeActive", t: 78_259 * Self.ms, line: 7),  // 17:48:23.621
                Derived("app.willResignActive", t: 163_546 * Self.ms, line: 11),  // 17:49:48.908
                Derived("app.didEnterBackground", t: 164_072 * Self.ms, line: 12),  // 17:49:49.434
                Derived("app.willEnterForeground", t: 196_548 * Self.ms, line: 14),  // 17:50:21.910
                Derived("app.didBecomeActive", t: 197_066 * Self.ms, line: 15),  // 17:50:22.428
            ])
        #expect(events[0].pid == 14684)
        #expect(events.dropFirst().allSatisfy { $0.attribute("from_app_print") == .bool(true) })
        #expect(events[0].attribute("from_app_print") == nil)
        #expect(importer.entries == 9)
        #expect(importer.skipped.lines == 4)  // the two comments, the heading, `#UITabBarItem`
        #expect(importer.format == .xcode)
        let header = importer.header(app: nil)
        #expect(header[.appPrints] == .bool(true))
        let result = MidSessionCaptureTests.analyze(importer, events)
        #expect(result.findings.isEmpty)
        #expect(result.processes.map(\.end) == [.traceEnded])
    }

    /// Xcode 10's console of CreatingStateLab on an iPhone 7, `NSLog(@"%@", NSStringFromSelector(_cmd))` in each
    /// delegate method (the bare selectors), pasted in seven fences among headings: launched, active, to the
    /// background and back, the app switcher, then to the background as the app is deleted, and the debugger's
    /// `Message from debugger: Terminated due to signal 9`, which has no time.
    @Test func bareSelectorPrintsAndTheDebuggersSignal() throws {
        let (importer, events) = try ImportFixtures.importFixture(
            "state-lab.xcode.md", AppSelection(process: "CreatingStateLab"))
        let us: Int64 = 1_000
        // Origin line 6, 11:04:58.026352 -0500; each time below is the line's minus it.
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 6, reason: "unknown"),
                Derived("app.didFinishLaunching", t: 0, line: 6),
                Derived("app.didBecomeActive", t: 39_082 * us, line: 7),  // 11:04:58.065434
                Derived("app.willResignActive", t: 21_807_599 * us, line: 13),  // 11:05:19.833951
                Derived("app.didEnterBackground", t: 22_420_482 * us, line: 14),  // 11:05:20.446834
                Derived("app.willEnterForeground", t: 49_789_372 * us, line: 22),  // 11:05:47.815724
                Derived("app.didBecomeActive", t: 50_034_910 * us, line: 23),  // 11:05:48.061262
                Derived("app.willResignActive", t: 83_585_993 * us, line: 29),  // 11:06:21.612345, the app switcher
                Derived("app.didBecomeActive", t: 114_772_950 * us, line: 35),  // 11:06:52.799302
                Derived("app.willResignActive", t: 166_763_795 * us, line: 41),  // 11:07:44.790147
                Derived("app.didEnterBackground", t: 167_364_427 * us, line: 42),  // 11:07:45.390779
                // Line 47, the debugger's line, prints no time: it joins the run's last entry (line 42), whose time
                // and line the end takes.
                Derived("process.exit", t: 167_364_427 * us, line: 42, reason: "SIGKILL"),
            ])
        #expect(events[0].pid == 11129)
        #expect(events.dropFirst().dropLast().allSatisfy { $0.attribute("from_app_print") == .bool(true) })
        #expect(events.last?.attribute("from_app_print") == nil)
        #expect(importer.entries == 10)
        // The two comments, the headings and the prose line (3, 10, 17, 19, 26, 32, 38, 45); not line 47.
        #expect(importer.skipped.lines == 10)
        #expect(importer.format == .xcode)
        let header = importer.header(app: nil)
        #expect(header[.appPrints] == .bool(true))
        #expect(header[.timeZone] == .string("-0500"))
        // 2019-05-04 11:04:58.026352 at -05:00 is 16:04:58.026352 UTC.
        #expect(header.startUnixNanoseconds == 1_556_985_898_026_352_000)
        let result = MidSessionCaptureTests.analyze(importer, events)
        #expect(result.findings.isEmpty)
        // Killed (signal 9) as it was deleted, after applicationDidEnterBackground (line 42): in the background.
        #expect(result.processes.map(\.end) == [.endedInBackground])
    }

    /// Xcode 5's console of BackgroundDemo on an iPhone 4S (iOS 7.1), indented as a Markdown code block and
    /// annotated: the bare names of the delegate methods, then an hour and a half in the background, where the app's
    /// region callbacks name no app callback.
    @Test func bareNamePrintsThenRegionCallbacksInTheBackground() throws {
        let (importer, events) = try ImportFixtures.importFixture(
            "beacon-background.xcode.md", AppSelection(process: "BackgroundDemo"),
            TimeAssumptions(year: 2014, zone: "-0400"))
        // Origin line 3, 16:53:41.499.
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 3, reason: "unknown"),
                Derived("app.didFinishLaunching", t: 0, line: 3),
                Derived("app.didBecomeActive", t: 23 * Self.ms, line: 4),  // 16:53:41.522
                Derived("app.willResignActive", t: 6_965 * Self.ms, line: 5),  // 16:53:48.464
                Derived("app.didEnterBackground", t: 6_994 * Self.ms, line: 6),  // 16:53:48.493
            ])
        #expect(events[0].pid == 287)
        #expect(events.dropFirst().allSatisfy { $0.attribute("from_app_print") == .bool(true) })
        // Lines 3-20 less the author's six annotations, which continue the entries before them.
        #expect(importer.entries == 12)
        #expect(importer.skipped.lines == 2)
        #expect(importer.format == .xcode)
        let header = importer.header(app: nil)
        #expect(header[.appPrints] == .bool(true))
        #expect(header[.timeZoneAssumed] == .bool(true))
        // 2014-03-11 16:53:41.499 at -04:00 is 20:53:41.499 UTC.
        #expect(header.startUnixNanoseconds == 1_394_571_221_499_000_000)
        let result = MidSessionCaptureTests.analyze(importer, events)
        #expect(result.findings.isEmpty)
        #expect(result.processes.map(\.end) == [.traceEnded])
    }

    /// Xcode's debugger's line ends the run only as its own line, and only after an entry of the run.
    @Test func theDebuggersLineEndsTheRunItFollows() {
        let text = """
            2019-05-04 11:04:58.026352-0500 App[11129:1710050] applicationDidBecomeActive:
            Message from debugger: Terminated due to signal 15
            2019-05-04 11:05:58.026352-0500 App[11130:1710050] the user said: Message from debugger: Terminated due to signal 9
            """
        let (_, events) = ImportFixtures.importText(text, Self.app)
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 1, reason: "unknown"),
                Derived("app.didBecomeActive", t: 0, line: 1),
                Derived("process.exit", t: 0, line: 1, reason: "SIGTERM"),
                Derived("process.launch", t: 60_000 * Self.ms, line: 3, reason: "unknown"),
            ])
    }

    /// Each common spelling of a callback's print is that callback.
    @Test(arguments: [
        ("applicationDidBecomeActive(_:)", EventKind.appDidBecomeActive),
        ("AppDelegate.applicationDidEnterBackground(_:)", .appDidEnterBackground),
        ("sceneDidEnterBackground(_:)", .appDidEnterBackground),
        ("sceneWillEnterForeground(_:)", .appWillEnterForeground),
        ("-[AppDelegate applicationDidBecomeActive:]", .appDidBecomeActive),
        ("-[SceneDelegate sceneWillResignActive:]", .appWillResignActive),
        ("applicationDidEnterBackground", .appDidEnterBackground),
        ("applicationWillResignActive:", .appWillResignActive),
        ("  applicationWillTerminate", .appWillTerminate),
        ("Running AppDelegate 'applicationDidBecomeActive:'", .appDidBecomeActive),
        ("application(_:didFinishLaunchingWithOptions:)", .appDidFinishLaunching),
        ("-[AppDelegate application:didFinishLaunchingWithOptions:]", .appDidFinishLaunching),
        ("applicationDidHide(_:)", .appDidHide),
        ("applicationWillEnterForeground\nwhat the app printed next, in Xcode's console", .appWillEnterForeground),
    ])
    func spellings(_ message: String, _ kind: EventKind) {
        #expect(AppPrintLine.callback(message) == kind)
    }

    /// Messages that mention a callback's name, or look like one, are no print of it: no event at all.
    @Test func aMessageThatMentionsACallbackIsNoEvent() {
        let mentions = [
            "applicationDidBecomeActive called",
            "in applicationDidEnterBackground(_:) saving",
            "-[AppDelegate applicationWillResignActive:],33",
            "111-[ViewController viewDidLoad]",
            "Will call applicationWillEnterForeground",
            "applicationDidBecomeActiveNotification",
            "-[AppDelegate applicationDidBecomeActive:] done",
            "applicationDidBecomeActive(_:) 1",
            "Running AppDelegate 'applicationDidBecomeActive:' now",
            "Running Some Delegate 'applicationDidBecomeActive:'",
            "-[AppDelegate viewDidAppear:]",
            "UIApplication.applicationDidBecomeActive is deprecated",
        ]
        for message in mentions { #expect(AppPrintLine.callback(message) == nil, "\(message)") }
        let text = mentions.enumerated().map { index, message in
            "2026-10-08 11:59:\(index < 10 ? "0" : "")\(index).000 App[31848:159e4] \(message)"
        }.joined(separator: "\n")
        let (_, events) = ImportFixtures.importText(text, Self.app)
        #expect(events.map(\.eventName) == ["process.launch"])
    }

    /// UIKit's deactivation line and the app's print of the same transition are one event, whichever comes first.
    @Test func aPrintAndUIKitsLineOfOneTransitionAreOneEvent() {
        let text = """
            2026-10-08 11:59:59.000 Df App[31848:159e4] [com.apple.UIKit:Lifecycle] Deactivation reason added: 10; deactivation reasons: 0 -> 1024; animating application lifecycle event: 0
            2026-10-08 11:59:59.100 Df App[31848:159e4] [com.apple.UIKit:Lifecycle] Deactivation reason removed: 10; deactivation reasons: 1024 -> 0; animating application lifecycle event: 0
            2026-10-08 11:59:59.101 Df App[31848:159e4] [com.example.App:lifecycle] applicationDidBecomeActive(_:)
            2026-10-08 12:00:05.000 Df App[31848:159e4] [com.example.App:lifecycle] applicationWillResignActive(_:)
            2026-10-08 12:00:05.001 Df App[31848:159e4] [com.apple.UIKit:Lifecycle] Deactivation reason added: 12; deactivation reasons: 0 -> 4096; animating application lifecycle event: 1
            2026-10-08 12:00:05.500 Df App[31848:159e4] [com.apple.UIKit:Lifecycle] Deactivation reason added: 11; deactivation reasons: 4096 -> 6144; animating application lifecycle event: 1
            2026-10-08 12:00:05.501 Df App[31848:159e4] [com.example.App:lifecycle] applicationDidEnterBackground(_:)
            """
        let (importer, events) = ImportFixtures.importText(text, Self.app)
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 1, reason: "unknown"),
                // UIKit's line first: the print adds nothing.
                Derived("app.didBecomeActive", t: 100 * Self.ms, line: 2),
                Derived("app.willResignActive", t: 6_000 * Self.ms, line: 4),  // the print first: UIKit's adds nothing
                Derived("app.didEnterBackground", t: 6_500 * Self.ms, line: 6),
            ])
        #expect(events[2].attribute("from_app_print") == .bool(true))
        #expect(events[1].attribute("from_app_print") == nil)
        #expect(importer.header(app: nil)[.appPrints] == .bool(true))
        #expect(MidSessionCaptureTests.analyze(importer, events).findings.isEmpty)
    }

    /// Xcode's console shows some entries with a space before them: each is an entry, not the text of the one
    /// before (whose print would then be lost).
    @Test func anIndentedXcodeEntryIsAnEntry() {
        let text = """
            2013-10-10 10:00:00.000 MyApp[100:200] applicationDidBecomeActive
             2013-10-10 10:00:05.000 MyApp[100:200] applicationWillResignActive
            2013-10-10 10:00:06.000 MyApp[100:200]  applicationDidEnterBackground
            """
        let (importer, events) = ImportFixtures.importText(text, AppSelection(process: "MyApp"))
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 1, reason: "unknown"),
                Derived("app.didBecomeActive", t: 0, line: 1),
                Derived("app.willResignActive", t: 5_000 * Self.ms, line: 2),
                Derived("app.didEnterBackground", t: 6_000 * Self.ms, line: 3),
            ])
        #expect(events.dropFirst().allSatisfy { $0.attribute("from_app_print") == .bool(true) })
        #expect(importer.entries == 3)
        #expect(importer.skipped.lines == 0)
    }

    /// A capture without prints says nothing of them in its header.
    @Test func noPrintsNoHeaderKey() throws {
        let (importer, _) = try ImportFixtures.importFixture(
            "cold-launch.console.log", AppSelection(process: "MobileJarvisNative"))
        #expect(importer.header(app: nil)[.appPrints] == nil)
    }
}
