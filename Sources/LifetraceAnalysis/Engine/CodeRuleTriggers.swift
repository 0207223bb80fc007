import LifetraceCore

/// The rules checked in code on events, for one trace: the kinds the analyzer reads for them (its gate per event)
/// and the checks each kind triggers (its dispatch), derived from the catalogue's declarations
/// (``Rule/Check/events(_:)`` and the rule's check) and kept to the rules whose scope admits the trace.
struct CodeRuleTriggers {
    /// The kinds the analyzer's own books read whatever the rules: `handler.return`, which brings a handler's
    /// duration to the models' budgets, the snapshots (`app.state`, `scene.state`), which say the recording began
    /// after the launch, `recorder.dropped`, which may have lost a `handler.return`, and
    /// `app.willTerminate`, after which the process's events are judged (LT013).
    static let booksRead: [EventKind] = [.handlerReturn, .appState, .sceneState, .recorderDropped, .appWillTerminate]

    /// By tag, whether the analyzer reads the kind for the rules checked in code: ``booksRead`` and the kinds
    /// the applicable rules checked on events declare.
    let read: KindTable<Bool>
    /// By tag, the checks of the applicable rules that events of the kind trigger, in id order.
    let checks: [[Rule.EventCheck]]

    /// The triggers of `rules` that `applies` admits.
    init(rules: [Rule], applies: (Rule) -> Bool) {
        var read = [Bool](repeating: false, count: 256)
        for kind in Self.booksRead { read[Int(kind.rawValue)] = true }
        var checks = [[Rule.EventCheck]](repeating: [], count: 256)
        for rule in rules where applies(rule) {
            guard case let .events(kinds) = rule.check else { continue }
            for kind in kinds {
                read[Int(kind.rawValue)] = true
                if let code = rule.code { checks[Int(kind.rawValue)].append(code) }
            }
        }
        self.read = KindTable(read)
        self.checks = checks
    }
}
