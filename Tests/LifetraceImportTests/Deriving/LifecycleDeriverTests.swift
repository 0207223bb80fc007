import LifetraceAnalysis
import LifetraceCore
import Testing

@testable import LifetraceImport

/// Events derived from real captures (Fixtures/README.md names their sources), compared with what the
/// fixture lines say when read by hand: times are differences of the lines' timestamps from the capture's
/// first entry.
@Suite struct LifecycleDeriverTests {
    /// Console lines of an iPhone cold launch (UIKit app without a scene manifest).
    @Test func coldLaunchBecomesLaunchTaskAndActive() throws {
        let (importer, events) = try ImportFixtures.importFixture(
            "cold-launch.console.log",
            AppSelection(process: "MobileJarvisNative", bundleID: "com.hightowerai.MobileJarvisNative"))
        // Origin 20:42:13.497006 (SpringBoard bootstraps the app).
        #expect(
            events.map(Derived.init) == [
                // SpringBoard: `Bootstrapping app<...> with intent foreground-interactive`: the user opened it.
                Derived("process.launch", t: 0, line: 3, reason: "user"),
                // 13.861881 `Created background task <private>.`
                Derived("task.begin", t: 364_875_000, line: 15, task: 1),
                Derived("task.end", t: 458_924_000, line: 29, task: 1),  // 13.955930
                Derived("app.didBecomeActive", t: 460_374_000, line: 33),  // 13.957380, reasons 32 -> 0
            ])
        // Reason 11 set while launching (1056 -> 3104) is not a trip to the background.
        #expect(!events.contains { $0.kind == .appDidEnterBackground })
        #expect(events[1].attribute("task_id_inferred") == .bool(true))
        #expect(importer.format == .console)
        #expect(importer.entries == 26)
        #expect(importer.notUnderstood.count == 0)
        let header = importer.header(app: nil)
        #expect(header.app == "com.hightowerai.MobileJarvisNative")
        #expect(header.sceneManifest == false)
        #expect(header[.derived] == .bool(true))
        #expect(header[.timeZone] == .string("-0500"))
    }

    /// Console lines of an app going to the background mid-session, with UIKit's own background tasks.
    @Test func backgroundingBecomesResignBackgroundTasksAndSnapshot() throws {
        let (_, events) = try ImportFixtures.importFixture("background.console.log", AppSelection(process: "hootowl"))
        // Origin 11:06:18.205818.
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 3, reason: "unknown"),
                Derived("app.didBecomeActive", t: 23_000, line: 4),  // reasons 0 -> 1: it was active
                Derived("app.willResignActive", t: 23_000, line: 4),
                Derived("app.didEnterBackground", t: 616_809_000, line: 9),  // 18.822627, reason 11 added
                Derived(
                    "task.begin", t: 619_692_000, line: 12, task: 19,
                    taskName: "com.apple.asset_manager.cache_resource_cleanup"),
                Derived("task.end", t: 619_770_000, line: 13, task: 19),
                Derived(
                    "task.begin", t: 626_429_000, line: 14, task: 20, taskName: "_UIRemoteKeyboard XPC disconnection"),
                Derived(
                    "task.begin", t: 627_287_000, line: 16, task: 21,
                    taskName: "com.apple.asset_manager.cache_resource_cleanup"),
                Derived("task.end", t: 627_314_000, line: 17, task: 21),
                Derived(
                    "task.begin", t: 631_009_000, line: 18, task: 22,
                    taskName: "com.apple.asset_manager.cache_resource_cleanup"),
                Derived("task.end", t: 631_055_000, line: 19, task: 22),
                Derived(
                    "task.begin", t: 631_260_000, line: 20, task: 23,
                    taskName: "com.apple.asset_manager.cache_resource_cleanup"),
                Derived("task.end", t: 631_381_000, line: 21, task: 23),
                Derived(
                    "task.begin", t: 632_106_000, line: 23, task: 24,
                    taskName: "com.apple.asset_manager.cache_resource_cleanup"),
                Derived("task.end", t: 632_126_000, line: 24, task: 24),
                // 18.866936: taskName com.apple.uikit.applicationSnapshot; two header lines, and entry 24 spans two lines.
                Derived("system.snapshot", t: 661_118_000, line: 29),
            ])
        #expect(events[1].attribute("state_at_capture_start") == .bool(true))
    }

    /// Console lines of a macOS app that crashed: runningboardd reports the termination.
    @Test func terminationBecomesExit() throws {
        let (importer, events) = try ImportFixtures.importFixture(
            "crash.console.log", AppSelection(process: "Nexy", bundleID: "com.nexy.assistant"))
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 3, reason: "unknown"),
                // runningboardd: `running-active (role: UserInteractive)`, 12:29:34.472105: in front of the user.
                Derived("app.didBecomeActive", t: 16_846_000, line: 7),
                // 12:29:34.567001 - 12:29:34.455259; two header lines, and entry 2 spans two lines.
                Derived("process.exit", t: 111_742_000, line: 12, reason: "terminated"),
            ])
        #expect(events[1].attribute("process_role") == .string("UserInteractive"))
        // Ended while in front of the user, with no callback: what a crash looks like.
        let analyzer = TraceAnalyzer(
            file: "crash", header: importer.header(app: nil), configuration: .defaults,
            models: LifecycleModel.builtIn)
        for event in events { analyzer.consume(event) }
        let result = analyzer.finish()
        #expect(result.processes.map(\.end) == [.endedInForeground])
        #expect(result.findings.isEmpty)
    }

    /// Console lines of the same app coming back to the foreground: reason 11 is removed just after
    /// `UIApplicationWillEnterForegroundNotification`, the mask reaches 0 just before `...DidBecomeActive...`.
    @Test func foregroundingBecomesEnterForegroundAndActive() throws {
        let (_, events) = try ImportFixtures.importFixture("foreground.console.log", AppSelection(process: "hootowl"))
        // Origin 18:38:07.674370, when the mask (6176 -> 6144) still holds reason 11: in the background.
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 3, reason: "unknown"),
                Derived("app.didEnterBackground", t: 0, line: 3),
                Derived("system.snapshot", t: 28_431_000, line: 6),  // 07.702801, task 8 is UIKit's snapshot
                Derived(
                    "task.begin", t: 196_332_000, line: 8, task: 9, taskName: "com.apple.UIKit.CABackingStoreCollect"),
                // 07.876329: task 4 began before the capture (no creation line): its end is kept, and says so.
                Derived("task.end", t: 201_959_000, line: 9, task: 4),
                Derived("task.end", t: 214_673_000, line: 10, task: 9),  // 07.889043
                Derived("app.willEnterForeground", t: 3_122_866_000, line: 13),  // 10.797236, 6176 -> 4128
                Derived("app.didBecomeActive", t: 3_452_363_000, line: 16),  // 11.126733, 32 -> 0
            ])
        #expect(events[1].attribute("state_at_capture_start") == .bool(true))
        #expect(events[4].attribute("begun_before_capture") == .bool(true))
        #expect(events[5].attribute("begun_before_capture") == nil)
    }

    /// The same session in every format `log` prints: the same events.
    @Test(arguments: ["session.default.log", "session.compact.log", "session.ndjson"])
    func everyFormatYieldsTheSameSession(fixture: String) throws {
        let (_, events) = try ImportFixtures.importFixture(
            fixture, AppSelection(process: "BareExample", bundleID: "com.example.Bare"))
        let s: Int64 = 1_000_000_000
        let expected: [(String, Int64)] = [
            ("process.launch", 0),
            ("app.didBecomeActive", 350_000_000),  // 10 removed, 1024 -> 0
            ("app.willResignActive", 10 * s + 350_000_000),  // 0 added, 0 -> 1
            ("app.didEnterBackground", 10 * s + 900_000_000),  // 11 added, 1 -> 2049
            ("task.begin", 10 * s + 910_000_000),
            ("task.end", 13 * s + 910_000_000),
            ("process.suspend", 19 * s),  // running-suspended
            ("process.resume", 61 * s),  // running-active
            ("app.willEnterForeground", 61 * s + 100_000_000),  // 11 removed
            ("app.didBecomeActive", 61 * s + 200_000_000),  // 1 -> 0
            ("process.exit", 70 * s),
        ]
        #expect(events.map { ($0.eventName, $0.t) }.elementsEqual(expected) { $0 == $1 })
        #expect(events[0].pid == 31848)
        #expect(events[4].task == 3 && events[4].name == "Finish Upload")
    }

    /// runningboardd's suspension, 12:00:18 to 12:01:00, is what the analyzer counts: 42 s, from the system.
    @Test func theSystemsSuspensionReplacesTheInference() throws {
        let (importer, events) = try ImportFixtures.importFixture(
            "session.default.log", AppSelection(process: "BareExample", bundleID: "com.example.Bare"))
        let analyzer = TraceAnalyzer(
            file: "session", header: importer.header(app: nil), configuration: .defaults,
            models: LifecycleModel.builtIn)
        for event in events { analyzer.consume(event) }
        let result = analyzer.finish()
        #expect(result.findings.isEmpty)
        #expect(result.suspensions.map { [$0.start, $0.end] } == [[19_000_000_000, 61_000_000_000]])
        #expect(result.totals.suspended == 42_000_000_000)
        #expect(result.suspensionFromGroundTruth)
        // Active 0.35 s -> 10.35 s and 61.2 s -> 70 s; inactive 0 -> 0.35 (the launch: reason 10, `0 -> 1024`),
        // 10.35 -> 10.9 and 61.1 -> 61.2; background 10.9 -> 19 and 61 -> 61.1.
        #expect(events[0].attribute("ui_state") == .string("inactive"))
        #expect(result.totals.active == 18_800_000_000)
        #expect(result.totals.inactive == 1_000_000_000)
        #expect(result.totals.background == 8_200_000_000)
    }

    @Test func theAppsOwnLinesAreTakenExactlyAndWinOverUIKits() throws {
        let (_, events) = try ImportFixtures.importFixture(
            "own-lines.compact.log", AppSelection(process: "BareExample"))
        #expect(
            events.map(\.eventName) == [
                "process.launch", "app.willFinishLaunching", "app.didFinishLaunching", "app.didBecomeActive",
                "app.willResignActive", "app.didEnterBackground", "custom.save",
            ])
        #expect(events[5].dur == 6_200_000_000)
        #expect(events[5].t == 12_500_000_000)
        #expect(events[4].dur == 800_000)
        #expect(events[6].name == "draft store")
    }

    /// In Xcode's console the app's `print` output continues the entry before it: an own line followed by
    /// printed lines is still taken exactly, from its first line.
    @Test func anOwnLineContinuedByPrintOutputIsTakenFromItsFirstLine() {
        let text = """
            2020-10-11 08:54:00.000000+0700 App[381:1] lifetrace ev=app.didFinishLaunching dur=5ms
            saved 3 drafts
            \tuser=42
            2020-10-11 08:54:01.000000+0700 App[381:1] lifetrace ev=app.didBecomeActive
            """
        let (importer, events) = ImportFixtures.importText(text, AppSelection(process: "App"))
        #expect(importer.notUnderstood.count == 0)
        #expect(events.map(\.eventName) == ["process.launch", "app.didFinishLaunching", "app.didBecomeActive"])
        #expect(events[1].dur == 5_000_000)
        #expect(events[2].t == 1_000_000_000)
    }

    @Test(arguments: [
        "Deactivation reason added: 12; deactivation reasons: 2080 -> ",
        "Deactivation reason added: x; deactivation reasons: 1 -> 2",
        "lifetrace ev=app.nope",
        "lifetrace ev=app.didBecomeActive dur=fast",
        "lifetrace ev=task.begin",
        "Created background task <_UIBackgroundTaskInfo: 0x1>: taskName = x",
    ])
    func malformedLifecycleLinesAreCountedNotDropped(message: String) {
        let text = "default\t10:00:00.000000+0000\tApp\tstarting\ndefault\t10:00:01.000000+0000\tApp\t\(message)\n"
        let (importer, events) = ImportFixtures.importText(text, AppSelection(process: "App"))
        #expect(importer.notUnderstood.count == 1)
        #expect(importer.notUnderstood.first.first?.line == 2)
        #expect(events.map(\.eventName) == ["process.launch"])
    }

    @Test func withoutTheBundleIDTheLaunchIsTheAppsFirstLine() throws {
        let (_, events) = try ImportFixtures.importFixture(
            "cold-launch.console.log", AppSelection(process: "MobileJarvisNative"))
        // 20:42:13.857631 - 13.497006; the same transitions otherwise.
        #expect(
            events.map(Derived.init).first == Derived("process.launch", t: 360_625_000, line: 12, reason: "unknown"))
        #expect(events.map(\.eventName) == ["process.launch", "task.begin", "task.end", "app.didBecomeActive"])
    }

    @Test(arguments: [("foreground-interactive", "user"), ("background", "background"), ("", "unknown")])
    func launchIntentsBecomeReasons(intent: String, reason: String) {
        #expect(LifecycleDeriver.launchReason(intent: intent[...]) == reason)
    }

    @Test func windowsLineEndingsReadTheSame() throws {
        // Lines as the command reads them from a file saved with CR LF: split at LF, each ending in CR.
        let lines = try ImportFixtures.text("cold-launch.console.log").utf8.split(separator: UInt8(ascii: "\n"))
        var importer = LogImporter(selection: AppSelection(process: "MobileJarvisNative"))
        var events: [LifecycleEvent] = []
        for (index, line) in lines.enumerated() {
            importer.feed((String(decoding: line, as: UTF8.self) + "\r")[...], number: index + 1) { events.append($0) }
        }
        importer.finish { events.append($0) }
        let (_, expected) = try ImportFixtures.importFixture(
            "cold-launch.console.log", AppSelection(process: "MobileJarvisNative"))
        #expect(events == expected)
        #expect(events.count == 4)
    }

    @Test func otherAppsAndUnrelatedLinesDeriveNothing() {
        let text = """
            default\t10:00:00.000000+0000\tOtherApp\tDeactivation reason removed: 5; deactivation reasons: 32 -> 0; animating application lifecycle event: 0
            default\t10:00:01.000000+0000\tSpringBoard\t[0x1:(FBSceneManager):sceneID:com.example.other-default] Scene lifecycle state did change: Background
            """
        let (importer, events) = ImportFixtures.importText(
            text, AppSelection(process: "App", bundleID: "com.example.app"))
        #expect(events.isEmpty)
        #expect(importer.entries == 2)
    }
}
