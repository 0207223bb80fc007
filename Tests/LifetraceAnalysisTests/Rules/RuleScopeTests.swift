import LifetraceCore
import Testing

@testable import LifetraceAnalysis

/// Where each rule applies, as its declaration says and as the documentation it cites has it: an app-delegate UI
/// callback is a finding only in a UIKit app with a scene manifest whose events are the callbacks themselves
/// (UIKit posts the `UIApplication` notifications either way: “Managing your app's life cycle”); the application's
/// notifications are judged against its scenes only where they were captured (“applicationState”);
/// `applicationWillTerminate` from the foreground is UIKit's alone (an AppKit app quits while active); nothing
/// orders a derived trace's UI against a launch callback it cannot show.
@Suite struct RuleScopeTests {
    static func header(
        _ lifecycle: TraceHeader.Lifecycle? = nil, manifest: Bool? = nil, capture: TraceHeader.CaptureMethod? = nil,
        derived: Bool = false
    ) -> TraceHeader {
        var header = TraceHeader()
        header.lifecycle = lifecycle
        if let manifest { header.sceneManifest = manifest }
        header.captureMethod = capture
        header.isDerived = derived
        return header
    }

    static func admits(_ id: RuleID, _ header: TraceHeader?, groundTruth: Bool = false, swiftUI: Bool = false) -> Bool {
        RuleCatalog.rule(id)!.scope.admits(header, groundTruth: groundTruth) { swiftUI && $0 == .swiftuiScenePhase }
    }

    @Test func appDelegateUICallbacksAreJudgedInASceneBasedUIKitAppCapturedFromCallbacks() {
        #expect(Self.admits(.appDelegateUIWithManifest, Self.header(manifest: true)))
        #expect(Self.admits(.appDelegateUIWithManifest, Self.header(.uikit, manifest: true, capture: .callbacks)))
        #expect(!Self.admits(.appDelegateUIWithManifest, Self.header(manifest: true, capture: .notifications)))
        #expect(!Self.admits(.appDelegateUIWithManifest, Self.header(manifest: false)))
        #expect(!Self.admits(.appDelegateUIWithManifest, Self.header()))
        #expect(!Self.admits(.appDelegateUIWithManifest, Self.header(.watchkit, manifest: true)))
        #expect(!Self.admits(.appDelegateUIWithManifest, nil))
    }

    @Test func applicationNotificationsAreJudgedAgainstScenesOnlyWhereCapturedAsNotifications() {
        #expect(Self.admits(.appNotificationAgainstScenes, Self.header(manifest: true, capture: .notifications)))
        #expect(!Self.admits(.appNotificationAgainstScenes, Self.header(manifest: true)))
        #expect(!Self.admits(.appNotificationAgainstScenes, Self.header(manifest: false, capture: .notifications)))
    }

    @Test func terminateFromTheForegroundIsUIKitsAlone() {
        #expect(Self.admits(.terminateFromForeground, nil))
        #expect(Self.admits(.terminateFromForeground, Self.header(.uikit)))
        for lifecycle: TraceHeader.Lifecycle in [.appkit, .watchkit, .appExtension, .service] {
            #expect(!Self.admits(.terminateFromForeground, Self.header(lifecycle)), "\(lifecycle)")
        }
    }

    @Test func theOtherScopesFollowTheirDeclarations() {
        #expect(Self.admits(.uiBeforeLaunch, Self.header()))
        #expect(!Self.admits(.uiBeforeLaunch, Self.header(derived: true)))
        #expect(!Self.admits(.workWhileSuspended, Self.header()))
        #expect(Self.admits(.workWhileSuspended, Self.header(), groundTruth: true))
        #expect(!Self.admits(.appPhaseAgainstScenes, Self.header()))
        #expect(Self.admits(.appPhaseAgainstScenes, Self.header(), swiftUI: true))
        #expect(Self.admits(.serviceEndedUnasked, Self.header(.service)))
        #expect(!Self.admits(.serviceEndedUnasked, Self.header()))
        // A rule that declares no scope applies everywhere.
        #expect(Self.admits(.taskLeaked, Self.header(.appkit)) && Self.admits(.taskLeaked, nil))
    }

    /// What a scope leaves out reports nothing: an AppKit app's `applicationWillTerminate` while active is how it
    /// quits, not LT012, and its app-level callbacks are no LT020 though a manifest were claimed.
    @Test func aRuleOutOfScopeReportsNothing() throws {
        let trace = """
            {"lifetrace":1,"lifecycle":"appkit","scene_manifest":true}
            {"t":0,"ev":"process.launch","reason":"user"}
            {"t":10,"ev":"app.didFinishLaunching"}
            {"t":20,"ev":"app.didBecomeActive"}
            {"t":30,"ev":"app.willTerminate","dur":5}
            """
        let (header, events) = try AnalysisHarness.parse(trace)
        let ids = AnalysisHarness.analyze(events, header: header).findings.map(\.rule.id)
        #expect(!ids.contains(.terminateFromForeground) && !ids.contains(.appDelegateUIWithManifest), "\(ids)")
    }
}
