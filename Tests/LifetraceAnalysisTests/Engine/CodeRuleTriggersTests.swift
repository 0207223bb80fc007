import LifetraceCore
import Testing

@testable import LifetraceAnalysis

/// The rules checked in code are dispatched on the kinds their catalogue entries declare, and on no other. The
/// expected kinds come from Apple's documentation, as the rules cite it: the app delegate's four UI callbacks
/// ("Managing your app's life cycle"), `applicationWillTerminate(_:)`, SwiftUI's `ScenePhase`, and the custom
/// events a save is marked with.
@Suite struct CodeRuleTriggersTests {
    static let appDelegateUI: Set<EventKind> = [
        .appWillEnterForeground, .appDidBecomeActive, .appWillResignActive, .appDidEnterBackground,
    ]

    @Test func eachRuleIsTriggeredByTheKindsItsDocumentationNames() {
        let triggers = CodeRuleTriggers()
        let expected: [(CodeRuleTriggers.Rules, Set<EventKind>)] = [
            (.appDelegateUI, Self.appDelegateUI),
            (.appNotifications, Self.appDelegateUI),
            (.terminateFromForeground, [.appWillTerminate]),
            (.appPhase, [.swiftuiScenePhase]),
            (.saveOnlyInTerminate, [.custom]),
        ]
        for (rule, kinds) in expected {
            let triggering = Set(EventKind.allCases.filter { triggers.rules[Int($0.rawValue)].contains(rule) })
            #expect(triggering == kinds, "\(rule)")
        }
    }

    @Test func aKindNoCodeCheckedRuleNamesTriggersNone() {
        let triggers = CodeRuleTriggers()
        for kind in [EventKind.sceneDidBecomeActive, .processLaunch, .heartbeat, .taskBegin] {
            #expect(triggers.rules[Int(kind.rawValue)].isEmpty, "\(kind.name)")
        }
    }

    /// The gate reads the rules' kinds, and what the process's books need besides: `handler.return`, the
    /// snapshots and `recorder.dropped`.
    @Test func theGateReadsEveryTriggeringKindAndTheBooksKinds() {
        let triggers = CodeRuleTriggers()
        let books: [EventKind] = [.handlerReturn, .appState, .sceneState, .recorderDropped]
        for kind in Array(Self.appDelegateUI) + [.appWillTerminate, .swiftuiScenePhase, .custom] + books {
            #expect(triggers.read[kind.rawValue], "\(kind.name)")
        }
        #expect(!triggers.read[EventKind.sceneDidBecomeActive.rawValue])
    }
}
