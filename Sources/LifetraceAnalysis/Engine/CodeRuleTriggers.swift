import LifetraceCore

/// The kinds of event the rules checked in code read, derived from each rule's one declaration in the catalogue
/// (``Rule/Check/events(_:)``): the analyzer's gate per event, and its dispatch to each rule.
struct CodeRuleTriggers {
    /// The rules checked in code on events of a kind, as bits.
    struct Rules: OptionSet {
        let rawValue: UInt8

        /// LT020: an app-delegate UI callback in an app with a scene manifest.
        static let appDelegateUI = Rules(rawValue: 1 << 0)
        /// LT021: an application notification against its scenes.
        static let appNotifications = Rules(rawValue: 1 << 1)
        /// LT012: `applicationWillTerminate` in the foreground.
        static let terminateFromForeground = Rules(rawValue: 1 << 2)
        /// LT030: SwiftUI's App-level phase against its scenes'.
        static let appPhase = Rules(rawValue: 1 << 3)
        /// LT080: state saved only in `applicationWillTerminate`.
        static let saveOnlyInTerminate = Rules(rawValue: 1 << 4)

        /// Each rule's id in the catalogue.
        static let ids: [(Rules, RuleID)] = [
            (.appDelegateUI, .appDelegateUIWithManifest), (.appNotifications, .appNotificationAgainstScenes),
            (.terminateFromForeground, .terminateFromForeground), (.appPhase, .appPhaseAgainstScenes),
            (.saveOnlyInTerminate, .saveOnlyInTerminate),
        ]
    }

    /// By tag, whether the analyzer reads the kind for the rules checked in code: the kinds the catalogue's rules
    /// checked on events declare, `handler.return`, which brings a handler's duration to the models' budgets,
    /// the snapshots (`app.state`, `scene.state`), which say the recording began after the launch, and
    /// `recorder.dropped`, which may have lost a `handler.return`.
    let read: KindTable<Bool>
    /// By tag, the rules of ``Rules`` that events of the kind trigger.
    let rules: [Rules]

    init() {
        var read = [Bool](repeating: false, count: 256)
        for kind in [EventKind.handlerReturn, .appState, .sceneState, .recorderDropped] {
            read[Int(kind.rawValue)] = true
        }
        for rule in RuleCatalog.all {
            guard case let .events(triggers) = rule.check else { continue }
            for kind in triggers { read[Int(kind.rawValue)] = true }
        }
        var rules = [Rules](repeating: [], count: 256)
        for (rule, id) in Rules.ids {
            for kind in Self.kinds(of: id) { rules[Int(kind.rawValue)].insert(rule) }
        }
        self.read = KindTable(read)
        self.rules = rules
    }

    /// The kinds the catalogue declares for the rule `id`, which code checks on events.
    static func kinds(of id: RuleID) -> Set<EventKind> {
        guard case let .events(kinds)? = RuleCatalog.rule(id)?.check else {
            preconditionFailure("the catalogue declares \(id) as checked on events")
        }
        return kinds
    }
}
