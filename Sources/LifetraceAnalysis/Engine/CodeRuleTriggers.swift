import LifetraceCore

/// The kinds of event the rules checked in code read, derived from each rule's one declaration in the catalogue
/// (``Rule/Check/events(_:)``): the analyzer's gate per event, and its dispatch to each rule.
struct CodeRuleTriggers {
    /// By tag, whether the analyzer reads the kind for the rules checked in code: the kinds the catalogue's rules
    /// checked on events declare, `handler.return`, which brings a handler's duration to the models' budgets,
    /// the snapshots (`app.state`, `scene.state`), which say the recording began after the launch, and
    /// `recorder.dropped`, which may have lost a `handler.return`.
    let read: [Bool]
    /// LT020's kinds: the app delegate's UI callbacks.
    let appDelegateUI: KindSet
    /// LT021's kinds: the application's notifications.
    let appNotifications: KindSet
    /// LT012's kinds: `applicationWillTerminate`.
    let terminateFromForeground: KindSet
    /// LT030's kinds: SwiftUI's phases.
    let appPhase: KindSet
    /// LT080's kinds: custom events (a save is `custom.save`).
    let saveOnlyInTerminate: KindSet

    init() {
        var read = [Bool](repeating: false, count: 256)
        for kind in [EventKind.handlerReturn, .appState, .sceneState, .recorderDropped] { read[Int(kind.rawValue)] = true }
        for rule in RuleCatalog.all {
            guard case let .events(triggers) = rule.check else { continue }
            for kind in triggers { read[Int(kind.rawValue)] = true }
        }
        self.read = read
        appDelegateUI = Self.kinds(of: .appDelegateUIWithManifest)
        appNotifications = Self.kinds(of: .appNotificationAgainstScenes)
        terminateFromForeground = Self.kinds(of: .terminateFromForeground)
        appPhase = Self.kinds(of: .appPhaseAgainstScenes)
        saveOnlyInTerminate = Self.kinds(of: .saveOnlyInTerminate)
    }

    /// The kinds the catalogue declares for the rule `id`, which code checks on events.
    static func kinds(of id: RuleID) -> KindSet {
        guard case let .events(kinds)? = RuleCatalog.rule(id)?.check else {
            preconditionFailure("the catalogue declares \(id) as checked on events")
        }
        var set = KindSet()
        for kind in kinds { set.insert(Int(kind.rawValue)) }
        return set
    }
}
