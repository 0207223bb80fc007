import Foundation
public import LifetraceCore
import LifetraceFormat

/// Reading a model from its JSON (Schemas/lifecycle-model.schema.json).
extension LifecycleModel {
    /// Reads a model from its JSON. Its rules are those of the catalogue (``RuleCatalog/all``, the built-in
    /// models' included) and those it declares.
    ///
    /// - Throws: ``ModelError`` naming the file and the member that is wrong.
    public init(json: JSONValue, file: String) throws(ModelError) {
        try self.init(json: json, file: file, knownRules: Set(RuleCatalog.all.map(\.id)))
    }

    /// Reads a model from its JSON, whose rules must be among `knownRules` or declared by the model itself.
    init(json: JSONValue, file: String, knownRules: Set<RuleID>) throws(ModelError) {
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
                guard let name = item.stringValue else {
                    throw fail("\"lifecycle\" must be a string or an array of strings")
                }
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
            guard let value = ActivationState(accounting: accounting) else {
                throw fail("state \"\(state)\": \"accounting\" must be none, active, inactive or background")
            }
            states[state] = value
            if let budget = details["budget"]?.stringValue {
                stateBudgets[state] = StateBudget(
                    budget: Budget(rawValue: budget),
                    rule: RuleID(rawValue: try string(details["budget_rule"], "budget_rule")))
            }
            if let atOnce = details["left_at_once"] {
                let events = try strings(atOnce["events"], "events")
                guard !events.isEmpty, let name = atOnce["accounting"]?.stringValue,
                    let value = ActivationState(accounting: name)
                else {
                    throw fail(
                        "state \"\(state)\": \"left_at_once\" needs \"events\" and an \"accounting\" of none, active, inactive or background"
                    )
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
            let transition = Transition(
                event: event, phase: try phase(item["phase"]), from: from, to: try string(item["to"], "to"),
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
            guard state == "*" || states[state] != nil else {
                throw fail("violation names the unknown state \"\(state)\"")
            }
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
            handlerBudgets.append(
                HandlerBudget(
                    event: try string(item["event"], "event"), phase: try phase(item["phase"]),
                    budget: Budget(rawValue: try string(item["budget"], "budget")),
                    rule: RuleID(rawValue: try string(item["rule"], "rule"))))
        }
        resetOn = Set(try strings(json["reset_on"], "reset_on"))
        rules = []
        for item in try objects(json["rules"], "rules") {
            let severity = try string(item["severity"], "severity")
            guard let level = Severity(rawValue: severity) else { throw fail("rule severity must be error or warning") }
            guard let titles = CallbackFamily.titles(item["titles"]) else {
                throw fail("rule titles must map callback families to strings")
            }
            rules.append(
                Rule(
                    id: RuleID(rawValue: try string(item["id"], "id")), severity: level,
                    title: try string(item["title"], "title"),
                    titles: titles, source: item["source"]?.stringValue ?? name,
                    explanation: item["explanation"]?.stringValue ?? "",
                    fix: item["fix"]?.stringValue ?? ""))
        }
        let known = knownRules.union(rules.map(\.id))
        let used =
            transitions.compactMap(\.rule) + violations.map(\.rule) + handlerBudgets.map(\.rule)
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
}
