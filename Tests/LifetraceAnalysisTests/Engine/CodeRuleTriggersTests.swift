import LifetraceCore
import Testing

@testable import LifetraceAnalysis

/// The rules checked in code are dispatched on the kinds their declarations name, and on no other, where their
/// scope admits the trace. The expected kinds come from Apple's documentation, as the rules cite it: the app
/// delegate's four UI callbacks ("Managing your app's life cycle"), `applicationWillTerminate(_:)`, SwiftUI's
/// `ScenePhase`, and the custom events a save is marked with.
@Suite struct CodeRuleTriggersTests {
    static let appDelegateUI: Set<EventKind> = [
        .appWillEnterForeground, .appDidBecomeActive, .appWillResignActive, .appDidEnterBackground,
    ]

    /// The number of checks each kind triggers.
    static func counts(_ triggers: CodeRuleTriggers) -> [EventKind: Int] {
        var counts: [EventKind: Int] = [:]
        for kind in EventKind.allCases where !triggers.checks[Int(kind.rawValue)].isEmpty {
            counts[kind] = triggers.checks[Int(kind.rawValue)].count
        }
        return counts
    }

    /// Every rule admitted: LT020 and LT021 on the app delegate's four callbacks, LT012 on
    /// `applicationWillTerminate`, LT030 on SwiftUI's phases, LT080 on custom events; nothing else.
    @Test func eachCheckIsDispatchedOnTheKindsItsDocumentationNames() {
        let counts = Self.counts(CodeRuleTriggers(rules: RuleCatalog.all) { _ in true })
        var expected: [EventKind: Int] = [.appWillTerminate: 1, .swiftuiScenePhase: 1, .custom: 1]
        for kind in Self.appDelegateUI { expected[kind] = 2 }
        #expect(counts == expected)
    }

    /// With the scopes of a scene-based UIKit app captured from callbacks: LT020 alone on the app delegate's
    /// callbacks; captured from notifications: LT021 alone; an AppKit app: neither, and no LT012.
    @Test func aRuleOutOfScopeIsNotDispatched() {
        func counts(_ header: TraceHeader) -> [EventKind: Int] {
            Self.counts(
                CodeRuleTriggers(rules: RuleCatalog.all) {
                    $0.scope.admits(header, groundTruth: false) { _ in false }
                })
        }
        var scenes = TraceHeader()
        scenes.sceneManifest = true
        var expected: [EventKind: Int] = [.appWillTerminate: 1, .custom: 1]
        for kind in Self.appDelegateUI { expected[kind] = 1 }
        #expect(counts(scenes) == expected)
        scenes.captureMethod = .notifications
        #expect(counts(scenes) == expected)
        scenes.lifecycle = .appkit
        #expect(counts(scenes) == [.custom: 1])
    }

    /// The gate reads the dispatched kinds, and what the process's books need whatever the rules:
    /// `handler.return`, the snapshots, `recorder.dropped` and `applicationWillTerminate`.
    @Test func theGateReadsEveryTriggeringKindAndTheBooksKinds() {
        let none = CodeRuleTriggers(rules: RuleCatalog.all) { _ in false }
        let books: [EventKind] = [.handlerReturn, .appState, .sceneState, .recorderDropped, .appWillTerminate]
        for kind in EventKind.allCases {
            #expect(none.read[kind.rawValue] == books.contains(kind), "\(kind.name)")
        }
        let all = CodeRuleTriggers(rules: RuleCatalog.all) { _ in true }
        for kind in Array(Self.appDelegateUI) + [.swiftuiScenePhase, .custom] + books {
            #expect(all.read[kind.rawValue], "\(kind.name)")
        }
        #expect(!all.read[EventKind.sceneDidBecomeActive.rawValue])
    }

    /// A rule added to the catalogue is in the gate and the dispatch of its kinds with nothing else written: the
    /// tables derive from the rules.
    @Test func aRuleAddedIsReadAndDispatched() {
        let added = Rule(
            id: RuleID(rawValue: "LT099"), severity: .warning, title: "a heartbeat", source: "-", explanation: "-",
            fix: "-", check: .events([.heartbeat]), code: { _, _, _, _ in })
        let triggers = CodeRuleTriggers(rules: RuleCatalog.all + [added]) { _ in true }
        #expect(triggers.read[EventKind.heartbeat.rawValue])
        #expect(triggers.checks[Int(EventKind.heartbeat.rawValue)].count == 1)
        let scopedOut = CodeRuleTriggers(rules: RuleCatalog.all + [added]) { $0.id != added.id }
        #expect(!scopedOut.read[EventKind.heartbeat.rawValue])
    }
}
