import Foundation
public import LifetraceCore
import LifetraceFormat

/// A lifecycle state machine as data (`Schemas/models/*.json`, `Schemas/lifecycle-model.schema.json`).
///
/// The analyzer's ``ModelEngine`` interprets any number of these; a new lifecycle (an Android activity, a
/// server's service states) is a new JSON file, not new code.
public struct LifecycleModel: Sendable {
    /// A move from some states to another on an event.
    public struct Transition: Sendable {
        /// The event name (`scene.didBecomeActive`).
        public var event: String
        /// For `swiftui.scenePhase`-like events: the phase the event must carry.
        public var phase: ScenePhase?
        /// The states the event is legal in (`"*"` in the JSON: every state).
        public var from: Set<String>
        /// The state the event leads to (also after a violation, so one mistake is reported once).
        public var to: String
        /// The rule a violation is reported under; `nil` for a transition legal in every state (a snapshot's).
        public var rule: RuleID?
    }

    /// Events that are findings in a state, whatever the transitions say.
    public struct Violation: Sendable {
        /// The state.
        public var state: String
        /// The rule.
        public var rule: RuleID
        /// Event name patterns (`scene.*`, `*`); `nil` means every event of the model.
        public var events: [String]?
        /// Event names exempt from the patterns.
        public var except: Set<String>
    }

    /// A handler whose duration (`dur`) must stay within a named budget.
    public struct HandlerBudget: Sendable {
        /// The event.
        public var event: String
        /// The phase it must carry, for phase events.
        public var phase: ScenePhase?
        /// The budget's name in ``AnalysisConfiguration``.
        public var budget: Budget
        /// The rule an overrun is reported under.
        public var rule: RuleID
    }

    /// A state whose episodes must stay within a named budget.
    public struct StateBudget: Sendable {
        /// The budget's name in ``AnalysisConfiguration``.
        public var budget: Budget
        /// The rule an overlong episode is reported under.
        public var rule: RuleID
    }

    /// A state whose time counts otherwise when the instance leaves it at once by one of `events`: when that
    /// event, for the same instance, is the process's next one after the event that brought the instance there
    /// (events during that event's handler, and its `handler.return`, aside), with no suspension between.
    ///
    /// UIKit's connected scene: a user-requested scene moves quickly to the foreground, so a connection followed
    /// at once by `sceneWillEnterForeground` was foreground-inactive from its start; a system-requested one
    /// moves to the background, so a connection followed by anything else was in the background.
    public struct LeftAtOnce: Sendable {
        /// The events that leave the state at once.
        public var events: Set<String>
        /// What the time in the state then counts as.
        public var accounting: Accounting
    }

    /// What the time spent in a state counts as.
    public enum Accounting: String, Sendable {
        /// Not counted (not attached, launching).
        case none
        /// Time active.
        case active
        /// Time in the foreground, inactive.
        case inactive
        /// Time in the background.
        case background

        /// 0 for `none`, then 1, 2, 3 for `active`, `inactive`, `background`: an index into tables, computed
        /// with no branch.
        @inline(__always)
        var index: Int {
            switch self {
            case .none: 0
            case .active: 1
            case .inactive: 2
            case .background: 3
            }
        }

        /// How far in the foreground: `none` 0, `background` 1, `inactive` 2, `active` 3 (where an aggregate
        /// of several instances is, is that of the most foreground).
        var foregroundRank: Int {
            switch self {
            case .none: 0
            case .background: 1
            case .inactive: 2
            case .active: 3
            }
        }

        /// The accounting of `index` (see ``index``); `none` for any other value.
        @inline(__always)
        init(index: Int) {
            switch index {
            case 1: self = .active
            case 2: self = .inactive
            case 3: self = .background
            default: self = .none
            }
        }
    }

    /// The model's name.
    public var name: String
    /// The event field whose value names an instance; `nil` for one instance per process.
    public var instanceField: String?
    /// Events without this field are not the model's.
    public var requireField: String?
    /// If set, the model applies only to traces whose header has this `scene_manifest`.
    public var appliesWhenSceneManifest: Bool?
    /// If set, the model applies only to traces that follow one of these lifecycles (the header's `lifecycle`;
    /// a header without one follows UIKit's).
    public var appliesWhenLifecycle: Set<TraceHeader.Lifecycle>?
    /// The state a new instance is in.
    public var initial: String
    /// The states and what their time counts as.
    public var states: [String: Accounting]
    /// State budgets: an episode longer than the budget (by name) is a finding of the rule.
    public var stateBudgets: [String: StateBudget]
    /// States whose time counts otherwise when they are left at once (``LeftAtOnce``), by state.
    public var leftAtOnce: [String: LeftAtOnce]
    /// The transitions.
    public var transitions: [Transition]
    /// State-wide violations.
    public var violations: [Violation]
    /// Handler budgets.
    public var handlerBudgets: [HandlerBudget]
    /// Events that return every instance to the initial state.
    public var resetOn: Set<String>
    /// Rules the model brings along (a model of another lifecycle names rules of its own).
    public var rules: [Rule]

    /// The models lifetrace ships: for UIKit, process, app-termination, scene, app-ui (no scene manifest) and
    /// swiftui-scene; for WatchKit, process, watchkit-app and swiftui-scene; for AppKit, process and appkit-app;
    /// for an app extension, app-extension.
    public static let builtIn: [LifecycleModel] = builtInSources.map { source in
        do {
            return try LifecycleModel(json: try JSONValue(parsing: source.json, file: "Schemas/models/\(source.name).json"),
                                      file: "Schemas/models/\(source.name).json", knownRules: Set(RuleCatalog.declared.map(\.id)))
        } catch {
            preconditionFailure("built-in model \(source.name) is invalid: \(error)")
        }
    }

    /// Whether the model applies to a trace whose header says `manifest` and follows `lifecycle`.
    public func applies(sceneManifest manifest: Bool?, lifecycle: TraceHeader.Lifecycle) -> Bool {
        if let wanted = appliesWhenSceneManifest, wanted != manifest { return false }
        if let lifecycles = appliesWhenLifecycle, !lifecycles.contains(lifecycle) { return false }
        return true
    }

    /// Reads a model from its JSON. Its rules are those of the catalogue (``RuleCatalog/all``, the built-in
    /// models' included) and those it declares.
    ///
    /// - Throws: ``ModelError`` naming the file and the member that is wrong.
    public init(json: JSONValue, file: String) throws(ModelError) {
        try self.init(json: json, file: file, knownRules: Set(RuleCatalog.all.map(\.id)))
    }

    /// Reads a model from its JSON, whose rules must be among `knownRules` or declared by the model itself.
    private init(json: JSONValue, file: String, knownRules: Set<RuleID>) throws(ModelError) {
        func fail(_ message: String) -> ModelError { ModelError(file: file, message: message) }
        func string(_ value: JSONValue?, _ what: String) throws(ModelError) -> String {
            guard let text = value?.stringValue else { throw fail("\"\(what)\" must be a string") }
            return text
        }
        func strings(_ value: JSONValue?, _ what: String) throws(ModelError) -> [String] {
            guard let value else { return [] }
            guard case let .array(items) = value else { throw fail("\"\(what)\" must be an array of strings") }
            var result: [String] = []
            for item in items { result.append(try string(item, what)) }
            return result
        }
        func phase(_ value: JSONValue?) throws(ModelError) -> ScenePhase? {
            guard let value else { return nil }
            guard let name = value.stringValue, let phase = ScenePhase(name: name) else {
                throw fail("\"phase\" must be active, inactive or background")
            }
            return phase
        }
        func objects(_ value: JSONValue?, _ what: String) throws(ModelError) -> [JSONValue] {
            guard let value else { return [] }
            guard case let .array(items) = value else { throw fail("\"\(what)\" must be an array") }
            return items
        }

        guard case .object = json else { throw fail("a model must be a JSON object") }
        name = try string(json["name"], "name")
        instanceField = json["instance_field"]?.stringValue
        requireField = json["require_field"]?.stringValue
        appliesWhenSceneManifest = json["applies_when"]?["scene_manifest"]?.boolValue
        switch json["applies_when"]?["lifecycle"] {
        case nil:
            appliesWhenLifecycle = nil
        case let .string(name)?:
            appliesWhenLifecycle = [try Self.lifecycle(name, file: file)]
        case let .array(items)?:
            var lifecycles = Set<TraceHeader.Lifecycle>()
            for item in items {
                guard let name = item.stringValue else { throw fail("\"lifecycle\" must be a string or an array of strings") }
                lifecycles.insert(try Self.lifecycle(name, file: file))
            }
            appliesWhenLifecycle = lifecycles
        default:
            throw fail("\"lifecycle\" must be a string or an array of strings")
        }
        initial = try string(json["initial"], "initial")
        guard case let .object(stateMembers)? = json["states"], !stateMembers.isEmpty else {
            throw fail("\"states\" must be an object with at least one state")
        }
        guard stateMembers.count <= Self.maxStates else {
            throw fail("a model has at most \(Self.maxStates) states; this one has \(stateMembers.count)")
        }
        states = [:]
        stateBudgets = [:]
        leftAtOnce = [:]
        for (state, details) in stateMembers {
            let accounting = details["accounting"]?.stringValue ?? "none"
            guard let value = Accounting(rawValue: accounting) else {
                throw fail("state \"\(state)\": \"accounting\" must be none, active, inactive or background")
            }
            states[state] = value
            if let budget = details["budget"]?.stringValue {
                stateBudgets[state] = StateBudget(budget: Budget(rawValue: budget),
                                                  rule: RuleID(rawValue: try string(details["budget_rule"], "budget_rule")))
            }
            if let atOnce = details["left_at_once"] {
                let events = try strings(atOnce["events"], "events")
                guard !events.isEmpty, let name = atOnce["accounting"]?.stringValue, let value = Accounting(rawValue: name) else {
                    throw fail("state \"\(state)\": \"left_at_once\" needs \"events\" and an \"accounting\" of none, active, inactive or background")
                }
                if let unknown = events.first(where: { EventKind(name: $0) == nil }) {
                    throw fail("state \"\(state)\": \"left_at_once\" names the unknown event \"\(unknown)\"")
                }
                leftAtOnce[state] = LeftAtOnce(events: Set(events), accounting: value)
            }
        }
        guard states[initial] != nil else { throw fail("the initial state \"\(initial)\" is not among the states") }
        let every = Set(states.keys)
        transitions = []
        for item in try objects(json["transitions"], "transitions") {
            let event = try string(item["event"], "event")
            let listed = Set(try strings(item["from"], "from"))
            let from = listed.contains("*") ? every : listed
            let rule = item["rule"] == nil ? nil : RuleID(rawValue: try string(item["rule"], "rule"))
            let transition = Transition(event: event, phase: try phase(item["phase"]), from: from, to: try string(item["to"], "to"),
                                        rule: rule)
            for state in transition.from.union([transition.to]) where states[state] == nil {
                throw fail("transition on \"\(transition.event)\" names the unknown state \"\(state)\"")
            }
            // Without a rule, nothing could report the event from a state it is not legal in.
            guard rule != nil || from == every else {
                throw fail("transition on \"\(event)\" needs a \"rule\": it is not legal in every state")
            }
            transitions.append(transition)
        }
        violations = []
        for item in try objects(json["violations"], "violations") {
            let state = try string(item["state"], "state")
            guard state == "*" || states[state] != nil else { throw fail("violation names the unknown state \"\(state)\"") }
            let rule = RuleID(rawValue: try string(item["rule"], "rule"))
            let events = item["events"] == nil ? nil : try strings(item["events"], "events")
            let except = Set(try strings(item["except"], "except"))
            // `*`: the same violation in every state, in the states' name order.
            for name in state == "*" ? every.sorted() : [state] {
                violations.append(Violation(state: name, rule: rule, events: events, except: except))
            }
        }
        handlerBudgets = []
        for item in try objects(json["handler_budgets"], "handler_budgets") {
            handlerBudgets.append(HandlerBudget(event: try string(item["event"], "event"), phase: try phase(item["phase"]),
                                                budget: Budget(rawValue: try string(item["budget"], "budget")),
                                                rule: RuleID(rawValue: try string(item["rule"], "rule"))))
        }
        resetOn = Set(try strings(json["reset_on"], "reset_on"))
        rules = []
        for item in try objects(json["rules"], "rules") {
            let severity = try string(item["severity"], "severity")
            guard let level = Severity(rawValue: severity) else { throw fail("rule severity must be error or warning") }
            guard let titles = CallbackFamily.titles(item["titles"]) else { throw fail("rule titles must map callback families to strings") }
            rules.append(Rule(id: RuleID(rawValue: try string(item["id"], "id")), severity: level, title: try string(item["title"], "title"),
                              titles: titles, source: item["source"]?.stringValue ?? name,
                              explanation: item["explanation"]?.stringValue ?? "",
                              fix: item["fix"]?.stringValue ?? ""))
        }
        let known = knownRules.union(rules.map(\.id))
        let used = transitions.compactMap(\.rule) + violations.map(\.rule) + handlerBudgets.map(\.rule)
            + stateBudgets.values.map(\.rule)
        if let unknown = used.first(where: { !known.contains($0) }) {
            throw fail("rule \(unknown) is neither in the catalogue nor declared by the model")
        }
    }

    /// The lifecycle `name` names (`uikit`, `watchkit`, `appkit`, `app-extension`).
    private static func lifecycle(_ name: String, file: String) throws(ModelError) -> TraceHeader.Lifecycle {
        guard let lifecycle = TraceHeader.Lifecycle(rawValue: name) else {
            let names = TraceHeader.Lifecycle.allCases.map(\.rawValue).joined(separator: ", ")
            throw ModelError(file: file, message: "\"lifecycle\" must be one of \(names); \"\(name)\" is none of them")
        }
        return lifecycle
    }

    /// The most states a model may have: the analyzer keeps a transition's source states as bits of one
    /// 64-bit word.
    public static let maxStates = 64

    /// Reads a model from a JSON file.
    public init(contentsOf path: String) throws(ModelError) {
        do {
            let text = try SettingsFile.text(of: path, "a lifecycle model", limit: InputFileSize.configuration)
            self = try LifecycleModel(json: try JSONValue(parsing: text, file: path), file: path)
        } catch let error as ModelError {
            throw error
        } catch let error as TraceError {
            // `FILE: byte N: MESSAGE`: the file is the model's, said once.
            throw ModelError(file: path, message: error.position == .file ? error.message : "\(error.position): \(error.message)")
        } catch {
            throw ModelError(file: path, message: "\(error)")
        }
    }
}

extension TraceHeader? {
    /// The lifecycle a trace with this header follows: the header's `lifecycle`, UIKit's when it does not say
    /// (or there is no header).
    var followedLifecycle: TraceHeader.Lifecycle {
        self?.lifecycle ?? .uikit
    }
}
