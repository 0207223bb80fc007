import LifetraceAnalysis
import LifetraceCore
import LifetraceTestSupport
import Testing

/// An event at `t`; a launch's reason is `unknown`, as a recorder writes it.
private func event(_ t: Int64, _ kind: EventKind, scene: String? = nil, phase: ScenePhase? = nil) -> LifecycleEvent {
    kind == .processLaunch
        ? LifecycleEvent(t: t, kind: kind, reason: "unknown")
        : LifecycleEvent(t: t, kind: kind, scene: scene, phase: phase)
}

/// Traces of a recorder started after the launch: `process.launch`, then a snapshot of where the app (`app.state`)
/// and each connected scene (`scene.state`) are, then ordinary callbacks. A snapshot is no callback: it is legal
/// in any state, moves the models to the state it names, means the launch is over (so nothing after it is
/// before didFinishLaunching), and measures no launch.
@Suite struct SnapshotTests {
    static let s: Int64 = 1_000_000_000
    static let ms: Int64 = 1_000_000

    /// The header a recorder capturing UIKit's notifications writes (so the app-level notifications of a
    /// scene-based app are not taken for app-delegate callbacks); no `lifecycle`: UIKit.
    static func header(sceneManifest: Bool) -> TraceHeader {
        var header = TraceHeader(sceneManifest: sceneManifest)
        header.captureMethod = .notifications
        return header
    }

    /// A scene-based app recorded from while S1 is active: resign, background, foreground, active again, and
    /// 7.998 s more active until a marker at 20 s ends the trace.
    static let lateSceneBased: [LifecycleEvent] = [
        event(0, .processLaunch),
        event(0, .appState, phase: .active),
        event(0, .sceneState, scene: "S1", phase: .active),
        event(10 * s, .sceneWillResignActive, scene: "S1"),
        event(10 * s + 1 * ms, .appWillResignActive),
        event(10 * s + 2 * ms, .sceneDidEnterBackground, scene: "S1"),
        event(10 * s + 3 * ms, .appDidEnterBackground),
        event(12 * s, .sceneWillEnterForeground, scene: "S1"),
        event(12 * s + 1 * ms, .appWillEnterForeground),
        event(12 * s + 2 * ms, .sceneDidBecomeActive, scene: "S1"),
        event(12 * s + 3 * ms, .appDidBecomeActive),
        LifecycleEvent(t: 20 * s, kind: .custom, label: "mark"),
    ]

    /// The same session of an app without a scene manifest: `app.state` alone.
    static let lateAppDelegateBased: [LifecycleEvent] = [
        event(0, .processLaunch),
        event(0, .appState, phase: .active),
        event(10 * s, .appWillResignActive),
        event(10 * s + 1 * ms, .appDidEnterBackground),
        event(12 * s, .appWillEnterForeground),
        event(12 * s + 1 * ms, .appDidBecomeActive),
        LifecycleEvent(t: 20 * s, kind: .custom, label: "mark"),
    ]

    @Test func aLateStartedSceneBasedTraceIsClean() {
        let result = AnalysisHarness.analyze(Self.lateSceneBased, header: Self.header(sceneManifest: true))
        #expect(result.findings.isEmpty, "\(result.findings.map { "\($0.rule.id): \($0.message)" })")
    }

    @Test func aLateStartedAppDelegateBasedTraceIsClean() {
        let result = AnalysisHarness.analyze(Self.lateAppDelegateBased, header: Self.header(sceneManifest: false))
        #expect(result.findings.isEmpty, "\(result.findings.map { "\($0.rule.id): \($0.message)" })")
    }

    /// By hand, from the events of ``lateSceneBased``: the snapshot puts S1 in the active state at 0, so
    /// active 0 → 10 s and 12.002 s → 20 s (10 s + 7.998 s), inactive 10 s → 10.002 s and 12 s → 12.002 s (4 ms),
    /// background 10.002 s → 12 s (1.998 s, too short to be taken for a suspension). The time before the
    /// snapshot is none: it is at the launch's instant. The process ends with the trace; it measured no launch.
    @Test func aLateStartedTraceAccountsItsTimeFromTheSnapshot() throws {
        let result = AnalysisHarness.analyze(Self.lateSceneBased, header: Self.header(sceneManifest: true))
        var expected = StateTimes()
        expected.active = 17_998 * Self.ms
        expected.inactive = 4 * Self.ms
        expected.background = 1_998 * Self.ms
        #expect(result.totals == expected)
        #expect(result.scenes.map(\.scene) == ["S1"])
        #expect(result.scenes.first?.times == expected)
        let process = try #require(result.processes.first)
        #expect(result.processes.count == 1 && process.times == expected)
        #expect(process.end == .traceEnded)
        #expect(process.firstActiveT == nil)
        #expect(result.suspensionCount == 0)

        // The app-delegate-based session: active 10 s + 7.999 s, inactive 1 ms + 1 ms, background 1.999 s.
        let app = AnalysisHarness.analyze(Self.lateAppDelegateBased, header: Self.header(sceneManifest: false))
        var appExpected = StateTimes()
        appExpected.active = 17_999 * Self.ms
        appExpected.inactive = 2 * Self.ms
        appExpected.background = 1_999 * Self.ms
        #expect(app.totals == appExpected)
        #expect(app.scenes.map(\.scene) == ["app"] && app.scenes.first?.times == appExpected)
    }

    /// A recorder puts `process.launch` at the process's exec and its snapshot where it started, here 30 s later:
    /// those 30 s are no suspension (the recorder was not running, not the app suspended), no background time
    /// (where the UI was is unknown until the snapshot), and no slow launch; the rest counts as before.
    @Test func nothingIsCountedBeforeTheSnapshotOfALateRecording() throws {
        let late = Self.lateSceneBased.enumerated().map { index, event in
            var event = event
            if index > 0 { event.t += 30 * Self.s }
            return event
        }
        let result = AnalysisHarness.analyze(late, header: Self.header(sceneManifest: true))
        #expect(result.findings.isEmpty, "\(result.findings.map { "\($0.rule.id): \($0.message)" })")
        #expect(result.suspensionCount == 0)
        let early = AnalysisHarness.analyze(Self.lateSceneBased, header: Self.header(sceneManifest: true))
        #expect(result.totals == early.totals && result.scenes == early.scenes)
        #expect(try #require(result.processes.first).firstActiveT == nil)
    }

    /// A snapshot long after the launch event is no slow launch, and no launch time: the launch happened before
    /// the recording.
    @Test func aSnapshotMeasuresNoLaunch() throws {
        let result = AnalysisHarness.analyze(
            [
                event(0, .processLaunch),
                event(6 * Self.s, .appState, phase: .background),
                event(7 * Self.s, .appWillEnterForeground),
                event(8 * Self.s, .appDidBecomeActive),
            ], header: Self.header(sceneManifest: false))
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
        #expect(try #require(result.processes.first).firstActiveT == nil)
    }

    // MARK: - Illegal sequences after a snapshot

    /// The snapshot says where the app is, and what follows is judged from there.
    @Test(
        arguments: [
            // Active, then active again without resigning first.
            (
                [event(0, .processLaunch), event(0, .appState, phase: .active), event(10, .appDidBecomeActive)], false,
                "LT001"
            ),
            // In the background, then resigning active.
            (
                [event(0, .processLaunch), event(0, .appState, phase: .background), event(10, .appWillResignActive)],
                false, "LT002"
            ),
            // Active, then straight into the background.
            (
                [event(0, .processLaunch), event(0, .appState, phase: .active), event(10, .appDidEnterBackground)],
                false, "LT003"
            ),
            // Inactive, then entering the foreground it is in.
            (
                [event(0, .processLaunch), event(0, .appState, phase: .inactive), event(10, .appWillEnterForeground)],
                false, "LT004"
            ),
            // A scene in the background becomes active without entering the foreground.
            (
                [
                    event(0, .processLaunch), event(0, .sceneState, scene: "S1", phase: .background),
                    event(10, .sceneDidBecomeActive, scene: "S1"),
                ], true, "LT001"
            ),
            // A scene active, then in the background without resigning.
            (
                [
                    event(0, .processLaunch), event(0, .sceneState, scene: "S1", phase: .active),
                    event(10, .sceneDidEnterBackground, scene: "S1"),
                ], true, "LT003"
            ),
            // A connected scene connects again.
            (
                [
                    event(0, .processLaunch), event(0, .sceneState, scene: "S1", phase: .background),
                    event(10, .sceneWillConnect, scene: "S1"),
                ], true, "LT007"
            ),
            // The launch is over once a snapshot is taken: a didFinishLaunching after it is a second launch.
            (
                [event(0, .processLaunch), event(0, .appState, phase: .active), event(10, .appDidFinishLaunching)],
                false, "LT010"
            ),
        ] as [([LifecycleEvent], Bool, RuleID)])
    func anIllegalSequenceAfterASnapshotIsAFinding(events: [LifecycleEvent], sceneManifest: Bool, rule: RuleID) throws {
        let result = AnalysisHarness.analyze(events, header: Self.header(sceneManifest: sceneManifest))
        #expect(result.findings.map(\.rule.id) == [rule], "\(result.findings.map(\.message))")
        #expect(try #require(result.findings.first).eventIndex == events.count - 1)
    }

    /// Without a snapshot a scene callback right after the launch is still before didFinishLaunching.
    @Test func withoutASnapshotACallbackBeforeTheLaunchIsStillAFinding() {
        let result = AnalysisHarness.analyze(
            [
                event(0, .processLaunch), event(10, .sceneWillConnect, scene: "S1"),
            ], header: Self.header(sceneManifest: true))
        #expect(result.findings.map(\.rule.id) == ["LT011"])
    }

    /// A snapshot after applicationWillTerminate is one finding of LT013 (the process model's), not one from
    /// the model and another from the rule in code.
    @Test func aSnapshotAfterTerminationIsOneFinding() {
        let result = AnalysisHarness.analyze(
            [
                event(0, .processLaunch),
                event(10, .appDidFinishLaunching),
                event(20, .appDidEnterBackground),
                LifecycleEvent(t: 30, kind: .appWillTerminate, dur: 5),
                event(100, .appState, phase: .background),
            ], header: Self.header(sceneManifest: false))
        #expect(result.findings.map(\.rule.id) == ["LT013"])
    }

    // MARK: - Suspension and exits

    /// A snapshot in the background starts the idle time suspension inference counts from, and a process that
    /// was active at its last event and gave way to a new launch ended in the foreground.
    @Test func suspensionAndExitsAreInferredFromTheSnapshotsState() throws {
        let result = AnalysisHarness.analyze(
            [
                event(0, .processLaunch),
                event(0, .appState, phase: .background),
                event(31 * Self.s, .appWillEnterForeground),
                event(31 * Self.s + 1, .appDidBecomeActive),
                event(40 * Self.s, .processLaunch),
                event(40 * Self.s, .appState, phase: .background),
                LifecycleEvent(t: 41 * Self.s, kind: .custom, label: "work"),
                event(100 * Self.s, .processLaunch),
            ], header: Self.header(sceneManifest: false))
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
        #expect(result.suspensions.map(\.start) == [0, 41 * Self.s])
        #expect(result.suspensions.map(\.end) == [31 * Self.s, 100 * Self.s])
        #expect(result.processes.map(\.end) == [.endedInForeground, .terminatedWhileSuspended, .traceEnded])
        #expect(result.processes[0].times.suspended == 31 * Self.s && result.processes[0].times.background == 0)
        #expect(result.processes[1].times.background == 1 * Self.s)
    }

    // MARK: - SwiftUI

    /// A SwiftUI app recorded from while S1 is active: the UIKit scene's snapshot says which phase the first
    /// onChange leaves (.inactive, legal from .active).
    @Test func aLateStartedSwiftUITraceIsClean() {
        let result = AnalysisHarness.analyze(
            [
                event(0, .processLaunch),
                event(0, .appState, phase: .active),
                event(0, .sceneState, scene: "S1", phase: .active),
                event(10, .sceneWillResignActive, scene: "S1"),
                event(11, .swiftuiScenePhase, scene: "S1", phase: .inactive),
                event(12, .swiftuiScenePhase, phase: .inactive),
                event(20, .sceneDidEnterBackground, scene: "S1"),
                event(21, .swiftuiScenePhase, scene: "S1", phase: .background),
                event(22, .swiftuiScenePhase, phase: .background),
                event(30, .sceneWillEnterForeground, scene: "S1"),
                event(31, .swiftuiScenePhase, scene: "S1", phase: .inactive),
                event(32, .swiftuiScenePhase, phase: .inactive),
                event(40, .sceneDidBecomeActive, scene: "S1"),
                event(41, .swiftuiScenePhase, scene: "S1", phase: .active),
                event(42, .swiftuiScenePhase, phase: .active),
            ], header: Self.header(sceneManifest: true))
        #expect(result.findings.isEmpty, "\(result.findings.map { "\($0.rule.id): \($0.message)" })")
    }

    /// After a snapshot of an active scene, .background skips .inactive: LT031, as from .active.
    @Test func aSkippedPhaseAfterASnapshotIsAFinding() {
        let result = AnalysisHarness.analyze(
            [
                event(0, .processLaunch),
                event(0, .sceneState, scene: "S1", phase: .active),
                event(10, .swiftuiScenePhase, scene: "S1", phase: .background),
            ], header: Self.header(sceneManifest: true))
        #expect(result.findings.map(\.rule.id) == ["LT031"])
        #expect(
            result.findings.first?.message == "swiftui.scenePhase background while swiftui-scene is snapshot-active")
    }

    /// The App-level phase of a scene known only from its snapshot is not judged against it (LT030 needs the
    /// scenes' phases).
    @Test func theAppPhaseIsNotJudgedAgainstAScenesSnapshot() {
        let result = AnalysisHarness.analyze(
            [
                event(0, .processLaunch),
                event(0, .sceneState, scene: "S1", phase: .inactive),
                event(10, .sceneDidBecomeActive, scene: "S1"),
                event(11, .swiftuiScenePhase, phase: .active),
                event(20, .sceneWillResignActive, scene: "S1"),
                event(21, .sceneDidEnterBackground, scene: "S1"),
                event(22, .swiftuiScenePhase, phase: .background),
            ], header: Self.header(sceneManifest: true))
        #expect(result.findings.isEmpty, "\(result.findings.map { "\($0.rule.id): \($0.message)" })")
    }
}
