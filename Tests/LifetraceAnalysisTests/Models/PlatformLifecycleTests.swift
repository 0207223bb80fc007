import Foundation
import LifetraceAnalysis
import LifetraceCore
import LifetraceSummary
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// An event at `t`; launches and exits with a reason.
private func event(_ t: Int64, _ kind: EventKind, phase: ScenePhase? = nil, dur: Int64? = nil) -> LifecycleEvent {
    switch kind {
    case .processLaunch: LifecycleEvent(t: t, kind: kind, reason: "user")
    case .processExit: LifecycleEvent(t: t, kind: kind, reason: "killed")
    default: LifecycleEvent(t: t, kind: kind, dur: dur, phase: phase)
    }
}

/// The lifecycles other than UIKit's, chosen by the header's `lifecycle`: a sequence Apple documents checks
/// clean, and each illegal one is a finding of the rule whose meaning it breaks. The UIKit-only rules (LT011
/// for an extension, LT012, LT020) stay quiet where their premise does not hold.
@Suite struct PlatformLifecycleTests {
    static let s: Int64 = 1_000_000_000
    static let ms: Int64 = 1_000_000

    static func header(_ lifecycle: TraceHeader.Lifecycle, sceneManifest: Bool? = nil) -> TraceHeader {
        var header = TraceHeader(sceneManifest: sceneManifest)
        header.lifecycle = lifecycle
        return header
    }

    /// A trace of `kinds` one millisecond apart, from a launch at 0.
    static func launched(_ kinds: [EventKind]) -> [LifecycleEvent] {
        [event(0, .processLaunch)] + kinds.enumerated().map { event(Int64($0.offset + 1) * ms, $0.element) }
    }

    static func check(_ events: [LifecycleEvent], _ lifecycle: TraceHeader.Lifecycle, sceneManifest: Bool? = nil)
        -> AnalysisResult
    {
        AnalysisHarness.analyze(events, header: header(lifecycle, sceneManifest: sceneManifest))
    }

    static func describe(_ result: AnalysisResult) -> String {
        "\(result.findings.map { "\($0.rule.id) #\($0.eventIndex): \($0.message)" })"
    }

    // MARK: - WatchKit

    /// Apple, “Working with the watchOS app life cycle”: launched (Transition A), applicationWillEnterForeground
    /// and applicationDidBecomeActive as the app comes on screen, wrist down (resign: inactive, the frontmost
    /// app) and up (active again), then the Dock (resign, background: Transition C) and back (foreground, active).
    @Test func aWatchKitSessionIsClean() {
        let result = Self.check(
            Self.launched([
                .appDidFinishLaunching, .appWillEnterForeground, .appDidBecomeActive,
                .appWillResignActive, .appDidBecomeActive,
                .appWillResignActive, .appDidEnterBackground, .appWillEnterForeground, .appDidBecomeActive,
            ]), .watchkit)
        #expect(result.findings.isEmpty, "\(Self.describe(result))")
        #expect(result.processes.first?.firstActiveT == 3 * Self.ms)
    }

    /// Transition A into the background (a background refresh launch, no UI callback), then the user opens the
    /// app (Transition C, then B); a launch straight into the inactive state, then active (A, then B); and, as in
    /// UIKit's app-based lifecycle, applicationDidEnterBackground again each time the app is woken in the background.
    @Test(arguments: [
        [EventKind.appDidFinishLaunching, .appWillEnterForeground, .appDidBecomeActive],
        [EventKind.appDidFinishLaunching, .appDidBecomeActive],
        [EventKind.appDidFinishLaunching, .appDidEnterBackground, .appDidEnterBackground, .appWillEnterForeground],
    ])
    func watchKitLaunchesAreClean(kinds: [EventKind]) {
        let result = Self.check(Self.launched(kinds), .watchkit)
        #expect(result.findings.isEmpty, "\(Self.describe(result))")
    }

    @Test(
        arguments: [
            ([EventKind.appDidFinishLaunching, .appDidBecomeActive, .appDidBecomeActive], "LT001"),
            ([EventKind.appDidFinishLaunching, .appWillEnterForeground, .appWillResignActive], "LT002"),
            ([EventKind.appDidFinishLaunching, .appDidBecomeActive, .appDidEnterBackground], "LT003"),
            ([EventKind.appDidFinishLaunching, .appWillEnterForeground, .appWillEnterForeground], "LT004"),
            ([EventKind.appDidBecomeActive], "LT011"),
            ([EventKind.appDidFinishLaunching, .appDidBecomeActive, .appWillTerminate], "LT061"),
            ([EventKind.appDidFinishLaunching, .sceneWillConnect], "LT061"),
        ] as [([EventKind], RuleID)])
    func anIllegalWatchKitSequenceIsAFinding(kinds: [EventKind], rule: RuleID) throws {
        let result = Self.check(Self.launched(kinds), .watchkit)
        #expect(result.findings.map(\.rule.id) == [rule], "\(Self.describe(result))")
        #expect(try #require(result.findings.first).eventIndex == kinds.count)
    }

    /// WatchKit has no scene manifest: a header that says there is one does not make its app-level callbacks
    /// findings (LT020 is UIKit's).
    @Test func aWatchKitTraceIsNotJudgedAsAUIKitSceneBasedApp() {
        let result = Self.check(
            Self.launched([.appDidFinishLaunching, .appWillEnterForeground, .appDidBecomeActive]),
            .watchkit, sceneManifest: true)
        #expect(result.findings.isEmpty, "\(Self.describe(result))")
    }

    // MARK: - AppKit

    /// Apple, “NSApplicationDelegate”: launched, active (frontmost), another app activated (resign), hidden for a
    /// minute while inactive, unhidden and active again, hidden and unhidden while active, then quit while
    /// active (applicationWillTerminate from the foreground is how a Mac app ends).
    static let appKitSession: [LifecycleEvent] = [
        event(0, .processLaunch),
        event(1 * ms, .appWillFinishLaunching),
        event(2 * ms, .appDidFinishLaunching),
        event(3 * ms, .appDidBecomeActive),
        event(10 * s, .appWillResignActive),
        event(10 * s + 1 * ms, .appDidHide),
        event(70 * s, .appDidUnhide),
        event(70 * s + 1 * ms, .appDidBecomeActive),
        event(75 * s, .appDidHide),
        event(76 * s, .appDidUnhide),
        event(80 * s, .appWillTerminate, dur: 1 * ms),
    ]

    @Test func anAppKitSessionIsClean() throws {
        let result = Self.check(Self.appKitSession, .appkit)
        #expect(result.findings.isEmpty, "\(Self.describe(result))")
        let process = try #require(result.processes.first)
        #expect(process.end == .cleanTerminate)
        #expect(process.firstActiveT == 3 * Self.ms)
    }

    /// A Mac app has no background: from its launch its time is inactive (to 3 ms, then 10 s → 70.001 s, hidden
    /// a minute, which is no suspension) or active (3 ms → 10 s, 70.001 s → 80 s), never background or suspended.
    @Test func anAppKitAppIsActiveOrInactiveAndNeverInTheBackground() {
        let result = Self.check(Self.appKitSession, .appkit)
        var expected = StateTimes()
        expected.active = (10 * Self.s - 3 * Self.ms) + (80 * Self.s - (70 * Self.s + 1 * Self.ms))
        expected.inactive = 3 * Self.ms + (70 * Self.s + 1 * Self.ms - 10 * Self.s)
        #expect(result.totals == expected)
        #expect(result.scenes.map(\.scene) == ["app"] && result.scenes.first?.times == expected)
        #expect(result.suspensionCount == 0)
    }

    /// A snapshot of an active Mac app (NSApplication.isActive), then a resign.
    @Test func aLateStartedAppKitTraceIsClean() {
        let result = Self.check(
            [
                event(0, .processLaunch), event(0, .appState, phase: .active), event(10, .appWillResignActive),
                event(20, .appDidHide), event(30, .appDidUnhide), event(40, .appDidBecomeActive),
            ], .appkit)
        #expect(result.findings.isEmpty, "\(Self.describe(result))")
    }

    @Test(
        arguments: [
            ([EventKind.appDidFinishLaunching, .appDidBecomeActive, .appDidBecomeActive], "LT001"),
            ([EventKind.appDidFinishLaunching, .appWillResignActive], "LT002"),
            (
                [EventKind.appDidFinishLaunching, .appDidBecomeActive, .appWillResignActive, .appDidEnterBackground],
                "LT060"
            ),
            ([EventKind.appDidFinishLaunching, .appWillEnterForeground], "LT060"),
            ([EventKind.appDidFinishLaunching, .appDidBecomeActive, .appWillTerminate, .appWillResignActive], "LT013"),
        ] as [([EventKind], RuleID)])
    func anIllegalAppKitSequenceIsAFinding(kinds: [EventKind], rule: RuleID) throws {
        let result = Self.check(Self.launched(kinds), .appkit)
        #expect(result.findings.map(\.rule.id) == [rule], "\(Self.describe(result))")
        #expect(try #require(result.findings.first).eventIndex == kinds.count)
    }

    // MARK: - App extensions

    /// Apple, “NSExtensionContext”: presented by its host (active), the host resigns and goes to the background
    /// (NSExtensionHostWillResignActive, NSExtensionHostDidEnterBackground), then comes back
    /// (NSExtensionHostWillEnterForeground, NSExtensionHostDidBecomeActive). No didFinishLaunching, and none needed.
    static let extensionSession: [LifecycleEvent] = [
        event(0, .processLaunch),
        event(5 * s, .appWillResignActive),
        event(5 * s + 1 * ms, .appDidEnterBackground),
        event(8 * s, .appWillEnterForeground),
        event(8 * s + 1 * ms, .appDidBecomeActive),
        LifecycleEvent(t: 10 * s, kind: .custom, label: "done"),
    ]

    /// Active from its start (5 s, then 1.999 s), inactive 1 ms twice, background 2.999 s; no launch measured.
    @Test func anAppExtensionSessionIsCleanAndActiveFromItsStart() throws {
        let result = Self.check(Self.extensionSession, .appExtension)
        #expect(result.findings.isEmpty, "\(Self.describe(result))")
        var expected = StateTimes()
        expected.active = 5 * Self.s + (10 * Self.s - (8 * Self.s + 1 * Self.ms))
        expected.inactive = 2 * Self.ms
        expected.background = 8 * Self.s - (5 * Self.s + 1 * Self.ms)
        #expect(result.totals == expected)
        #expect(try #require(result.processes.first).firstActiveT == nil)
    }

    @Test(
        arguments: [
            ([EventKind.appDidBecomeActive], "LT001"),
            ([EventKind.appWillResignActive, .appWillResignActive], "LT002"),
            ([EventKind.appDidEnterBackground], "LT003"),
            ([EventKind.appWillEnterForeground], "LT004"),
            ([EventKind.appDidFinishLaunching], "LT062"),
            ([EventKind.appWillResignActive, .appDidEnterBackground, .appWillTerminate], "LT062"),
        ] as [([EventKind], RuleID)])
    func anIllegalAppExtensionSequenceIsAFinding(kinds: [EventKind], rule: RuleID) throws {
        let result = Self.check(Self.launched(kinds), .appExtension)
        #expect(result.findings.map(\.rule.id) == [rule], "\(Self.describe(result))")
        #expect(try #require(result.findings.first).eventIndex == kinds.count)
    }

    /// A second process starts active again; the first, inactive when it was killed, ended in the foreground.
    @Test func anAppExtensionRelaunchStartsActiveAgain() {
        let result = Self.check(
            [
                event(0, .processLaunch), event(1 * Self.s, .appWillResignActive), event(2 * Self.s, .processExit),
                event(10 * Self.s, .processLaunch), event(11 * Self.s, .appWillResignActive),
            ], .appExtension)
        #expect(result.findings.isEmpty, "\(Self.describe(result))")
        #expect(result.processes.map(\.end) == [.endedInForeground, .traceEnded])
        #expect(
            result.totals.active == 2 * Self.s && result.totals.inactive == 1 * Self.s && result.totals.background == 0)
    }

    // MARK: - UIKit, with and without the key

    /// Every sample trace (UIKit's, none says so) is judged the same with `lifecycle: uikit` as without it.
    @Test func aUIKitTraceIsJudgedAlikeWithOrWithoutTheKey() throws {
        let directory = PackagePaths.path("SampleTraces")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".jsonl") }
            .sorted()
        #expect(names.count > 20)
        for name in names {
            let (header, events) = try AnalysisHarness.parse(
                String(contentsOfFile: directory + "/" + name, encoding: .utf8))
            #expect(header?.lifecycle == nil, "\(name)")
            var uikit = header ?? TraceHeader()
            uikit.lifecycle = .uikit
            let before = AnalysisHarness.analyze(events, header: header)
            let after = AnalysisHarness.analyze(events, header: uikit)
            #expect(after.findings.map(\.rule.id) == before.findings.map(\.rule.id), "\(name)")
            #expect(after.findings.map(\.eventIndex) == before.findings.map(\.eventIndex), "\(name)")
            #expect(
                after.totals == before.totals && after.processes == before.processes && after.scenes == before.scenes,
                "\(name)")
        }
    }

    /// The same events judged by another lifecycle's models: an app delegate's background is legal in UIKit and
    /// a finding in AppKit, and applicationWillTerminate from the foreground, or over five seconds, the other way
    /// round.
    @Test func theHeadersLifecyclePicksTheModels() {
        let background = Self.launched([
            .appDidFinishLaunching, .appDidBecomeActive, .appWillResignActive, .appDidEnterBackground,
        ])
        #expect(Self.check(background, .uikit, sceneManifest: false).findings.isEmpty)
        #expect(AnalysisHarness.analyze(background, header: TraceHeader(sceneManifest: false)).findings.isEmpty)
        #expect(Self.check(background, .appkit).findings.map(\.rule.id) == ["LT060"])
        let quit = Self.launched([.appDidFinishLaunching, .appDidBecomeActive, .appWillTerminate])
        #expect(Self.check(quit, .uikit, sceneManifest: false).findings.map(\.rule.id) == ["LT012"])
        #expect(Self.check(quit, .appkit).findings.isEmpty)
        // UIKit gives applicationWillTerminate about five seconds; AppKit documents no such limit.
        let slowQuit =
            Self.launched([.appDidFinishLaunching, .appDidBecomeActive, .appWillResignActive, .appDidEnterBackground])
            + [event(1 * Self.s, .appWillTerminate, dur: 6 * Self.s)]
        #expect(Self.check(slowQuit, .uikit, sceneManifest: false).findings.map(\.rule.id) == ["LT051"])
        let slowAppKitQuit =
            Self.launched([.appDidFinishLaunching, .appDidBecomeActive])
            + [event(1 * Self.s, .appWillTerminate, dur: 6 * Self.s)]
        #expect(Self.check(slowAppKitQuit, .appkit).findings.isEmpty)
    }

    /// Summaries reuse compiled models from trace to trace: a trace of another lifecycle with the same scene
    /// manifest gets its own.
    @Test func summariesCompileModelsPerLifecycle() {
        let directory = TemporaryDirectory()
        let body = """
            {"t":0,"ev":"process.launch","reason":"user"}
            {"t":10,"ev":"app.didFinishLaunching"}
            {"t":20,"ev":"app.didBecomeActive"}
            {"t":30,"ev":"app.willResignActive"}
            {"t":40,"ev":"app.didEnterBackground"}
            """
        let uikit = directory.write("uikit.jsonl", text: "{\"lifetrace\":1,\"scene_manifest\":false}\n" + body + "\n")
        let appkit = directory.write(
            "appkit.jsonl", text: "{\"lifetrace\":1,\"scene_manifest\":false,\"lifecycle\":\"appkit\"}\n" + body + "\n")
        var summarizer = TraceSummarizer(codec: .zstd)
        var findings: [String] = []
        for path in [uikit, appkit] {
            summarizer.summarize(path: path) { row in
                if case let .finding(finding) = row.columns, let rule = finding.rule { findings.append(rule) }
            }
        }
        #expect(findings == ["LT060"])
    }

    // MARK: - Rules

    /// The rules the platform models declare are in the catalogue `lifetrace rules` lists and `lifetrace explain`
    /// prints, each citing Apple's page by title; ids stay unique.
    @Test func theModelsRulesAreExplained() throws {
        let ids = RuleCatalog.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ids == ids.sorted())
        for (id, page) in [
            ("LT060", "“NSApplication”"), ("LT061", "“Working with the watchOS app life cycle”"),
            ("LT062", "“App Extension Programming Guide”"),
        ] as [(RuleID, String)] {
            let rule = try #require(RuleCatalog.rule(RuleID(rawValue: id.rawValue.lowercased())))
            #expect(rule.check == .model)
            #expect(rule.source.hasPrefix("Apple, " + page), "\(id)")
            #expect(rule.explanation.contains(page), "\(id)")
            #expect(!rule.fix.isEmpty)
        }
    }
}
