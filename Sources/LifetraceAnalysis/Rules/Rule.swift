public import LifetraceCore
import LifetraceFormat

/// How serious a finding is.
public enum Severity: String, Sendable, Comparable {
    /// Something the system punishes (an ordering the app cannot rely on, a budget it enforces by killing
    /// the app, a leaked task): `lifetrace check` exits 1.
    case error
    /// A soft budget or a smell: `lifetrace check --strict` exits 1.
    case warning

    /// Errors sort first.
    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        lhs == .error && rhs == .warning
    }
}

/// One rule of the catalogue: a stable id, what it checks, where the rule comes from, how to fix a finding,
/// where it applies and where the analyzer checks it. The catalogue's rules are declared once each, in
/// `Schemas/rules.json`, from which `scripts/gen-vocabulary` generates ``RuleCatalog/all`` and ``RuleID``'s
/// constants.
public struct Rule: Sendable, Hashable {
    /// Where the analyzer checks a rule, and on which events.
    public enum Check: Sendable, Hashable {
        /// A lifecycle model reports it (a transition, a violation, a state or handler budget): the model's
        /// JSON names the rule, and the model's events trigger it.
        case model
        /// Code checks it on each event of these kinds (the analyzer reads no other kind for it).
        case events(Set<EventKind>)
        /// Code checks it on background-task events (`task.*`, `bg.*`) and where a process ends with a task open.
        case tasks
        /// Code checks it on the process's state: any event, once the state calls for it (after
        /// `applicationWillTerminate`, while suspended, at the first activation).
        case process
    }

    /// A rule's check in code on one event of the kinds its ``Check/events(_:)`` names: the analyzer's state,
    /// the event, its row in its block, the block.
    typealias EventCheck = @Sendable (inout AnalysisCore, EventRecord, Int, borrowing EventBlock) -> Void

    /// The stable id, `LT001`...
    public let id: RuleID
    /// The default severity.
    public let severity: Severity
    /// One line, naming callbacks as a UIKit app with scenes has them.
    public let title: String
    /// The title where a trace's platform names the callbacks otherwise (`applicationDidEnterBackground` where a
    /// scene-based app has `sceneDidEnterBackground`), by its ``CallbackFamily``; declared with the rule.
    public let titles: [CallbackFamily: String]
    /// The documentation the rule comes from: Apple's page by title and address, with the passage.
    public let source: String
    /// What goes wrong, for an app developer.
    public let explanation: String
    /// What to do about it.
    public let fix: String
    /// Where the analyzer checks it.
    public let check: Check
    /// The traces it applies to: on others it is not checked, and nothing reports it.
    public let scope: Scope
    /// For a rule ``Check/events(_:)`` the analyzer itself dispatches, its check.
    let code: EventCheck?

    /// Declares a rule (a model's own, in its JSON; the catalogue's are generated from `Schemas/rules.json`).
    public init(
        id: RuleID, severity: Severity, title: String, titles: [CallbackFamily: String] = [:], source: String,
        explanation: String, fix: String, check: Check = .model, scope: Scope = Scope()
    ) {
        self.init(
            id: id, severity: severity, title: title, titles: titles, source: source, explanation: explanation,
            fix: fix, check: check, scope: scope, code: nil)
    }

    /// Declares a rule, with its check in code.
    init(
        id: RuleID, severity: Severity, title: String, titles: [CallbackFamily: String] = [:], source: String,
        explanation: String, fix: String, check: Check = .model, scope: Scope = Scope(), code: EventCheck?
    ) {
        self.id = id
        self.severity = severity
        self.title = title
        self.titles = titles
        self.source = source
        self.explanation = explanation
        self.fix = fix
        self.check = check
        self.scope = scope
        self.code = code
    }

    /// Two rules are the same when all they declare is (the check in code aside, which is known by its id).
    public static func == (lhs: Rule, rhs: Rule) -> Bool {
        lhs.id == rhs.id && lhs.severity == rhs.severity && lhs.title == rhs.title && lhs.titles == rhs.titles
            && lhs.source == rhs.source && lhs.explanation == rhs.explanation && lhs.fix == rhs.fix
            && lhs.check == rhs.check && lhs.scope == rhs.scope && (lhs.code == nil) == (rhs.code == nil)
    }

    /// Hashes the id.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
    }
}

extension Rule {
    /// The title for a trace whose platform has the callbacks of `family`.
    public func title(for family: CallbackFamily) -> String {
        titles[family] ?? title
    }

    /// The rule as a finding in a trace of `family` shows it: its title that family's.
    func worded(for family: CallbackFamily) -> Rule {
        guard let title = titles[family], title != self.title else { return self }
        return Rule(
            id: id, severity: severity, title: title, titles: titles, source: source, explanation: explanation,
            fix: fix, check: check, scope: scope, code: code)
    }
}
