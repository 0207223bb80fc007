// Compiling a model: from its JSON declaration to the tables the stepping code reads.

import LifetraceCore
import LifetraceFormat

extension CompiledModel {
    /// The smallest limit the budget `name` (by default `limit`) has for any scene.
    static func smallestLimit(_ limit: Int64, named name: Budget, configuration: AnalysisConfiguration) -> Int64 {
        let overrides = configuration.sceneBudgets.values.compactMap { $0[name] }.map { $0 ?? .max }
        return ([limit] + overrides).min()!
    }

    static func matches(_ pattern: String, _ name: String) -> Bool {
        if pattern == "*" { return true }
        if pattern.hasSuffix("*") { return name.hasPrefix(String(pattern.dropLast())) }
        return pattern == name
    }

    /// Compiles `model`; `rule` numbers a rule id in the engine's table of rules.
    init(_ model: LifecycleModel, configuration: AnalysisConfiguration, rule: (RuleID) -> Int) {
        let names = model.states.keys.sorted()
        let number = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        var byKind = [[Transition]](repeating: [], count: 256)
        var customTransitions: [String: [Transition]] = [:]
        var touches = KindSet()
        for transition in model.transitions {
            let from = transition.from.reduce(UInt64(0)) { $0 | 1 << UInt64(number[$1]!) }
            // A transition without a rule is legal in every state: its rule is never read.
            let compiled = Transition(
                phase: transition.phase, from: from, to: number[transition.to]!,
                rule: transition.rule.map(rule) ?? -1)
            if transition.event.hasPrefix("custom.") {
                customTransitions[String(transition.event.dropFirst("custom.".count)), default: []].append(compiled)
                touches.insert(Int(EventKind.custom.rawValue))
                continue
            }
            guard let kind = EventKind(name: transition.event) else { continue }
            byKind[Int(kind.rawValue)].append(compiled)
            touches.insert(Int(kind.rawValue))
        }
        var transitionStart = [0]
        var transitions: [Transition] = []
        for list in byKind {
            transitions.append(contentsOf: list)
            transitionStart.append(transitions.count)
        }
        let modelKinds = touches
        var violations = [[(kinds: KindSet, rule: Int)]](repeating: [], count: names.count)
        for violation in model.violations {
            var kinds = KindSet()
            for kind in EventKind.allCases where !violation.except.contains(kind.name) {
                let tag = Int(kind.rawValue)
                let hit =
                    violation.events.map { $0.contains { Self.matches($0, kind.name) } } ?? modelKinds.contains(tag)
                if hit {
                    kinds.insert(tag)
                    touches.insert(tag)
                }
            }
            violations[number[violation.state]!].append((kinds, rule(violation.rule)))
        }
        var budgets = [[HandlerBudget]](repeating: [], count: 256)
        for budget in model.handlerBudgets {
            guard let kind = EventKind(name: budget.event) else { continue }
            // A budget off by default may still be set for some scenes: keep it, with no default limit.
            let limit = configuration.budget(budget.budget) ?? .max
            budgets[Int(kind.rawValue)].append(
                HandlerBudget(
                    phase: budget.phase, budget: limit, rule: rule(budget.rule),
                    name: budget.budget))
            touches.insert(Int(kind.rawValue))
        }
        var resets = KindSet()
        for name in model.resetOn {
            if let kind = EventKind(name: name) {
                resets.insert(Int(kind.rawValue))
                touches.insert(Int(kind.rawValue))
            }
        }
        let accounting = names.map { model.states[$0]! }
        let stateBudget: [(budget: Int64, rule: Int, name: Budget)?] = names.map { name in
            guard let entry = model.stateBudgets[name] else { return nil }
            return (configuration.budget(entry.budget) ?? .max, rule(entry.rule), entry.budget)
        }
        let atOnce: [(kinds: KindSet, accounting: ActivationState)?] = names.map { name in
            guard let rule = model.leftAtOnce[name] else { return nil }
            var kinds = KindSet()
            for event in rule.events { if let kind = EventKind(name: event) { kinds.insert(Int(kind.rawValue)) } }
            return (kinds, rule.accounting)
        }
        let waitsAtOnce = atOnce.map { $0 != nil }
        // The table: what the table-by-table path would do with each kind, phase and state, when that is
        // a plain legal move or nothing. A move into a state left at once, or out of one by its kinds, is
        // flagged (``Action/atOnceFlag``).
        var actions = [UInt8](repeating: Action.examine, count: names.count << 10)
        for state in names.indices {
            for phase in [nil] + ScenePhase.allCases.map(Optional.some) {
                for tag in 0..<256 where tag != Int(EventKind.custom.rawValue) {
                    if violations[state].contains(where: { $0.kinds.contains(tag) }) { continue }
                    let candidates = transitions[transitionStart[tag]..<transitionStart[tag + 1]]
                    let action: UInt8
                    if let transition = candidates.first(where: { $0.phase == nil || $0.phase == phase }) {
                        guard transition.from & (1 << UInt64(state)) != 0 else { continue }
                        let leavesAtOnce = atOnce[state]?.kinds.contains(tag) == true && transition.to != state
                        let entersAtOnce = waitsAtOnce[transition.to] && transition.to != state
                        action = UInt8(transition.to) | (leavesAtOnce || entersAtOnce ? Action.atOnceFlag : 0)
                    } else {
                        action = Action.stay
                    }
                    actions[Action.index(state: state, phase: phase, tag: tag)] = action
                }
            }
        }
        self.name = model.name
        self.names = names
        self.initial = number[model.initial]!
        self.keyedByScene = model.instanceField == EventFields.Name.scene.description
        self.slotMask = keyedByScene ? ~0 : 0
        self.requiresScene = model.requireField == EventFields.Name.scene.description
        self.accounting = accounting
        self.stateBudget = stateBudget
        self.stateLimit = stateBudget.map { budget in
            budget.map { Self.smallestLimit($0.budget, named: $0.name, configuration: configuration) } ?? .max
        }
        self.transitionStart = transitionStart
        self.transitions = transitions
        self.customTransitions = customTransitions
        self.violations = violations
        self.budgets = budgets
        self.handlerLimit = KindTable(
            budgets.map { list in
                list.map { Self.smallestLimit($0.budget, named: $0.name, configuration: configuration) }.min() ?? .max
            })
        self.atOnceKindWords = atOnce.flatMap { rule in
            (0..<4).map { word in
                (0..<64).reduce(UInt64(0)) { $0 | (rule?.kinds.contains(word << 6 | $1) == true ? 1 << UInt64($1) : 0) }
            }
        }
        self.atOnceAccounting = atOnce.map { $0?.accounting ?? .unattached }
        self.waitsAtOnce = waitsAtOnce
        self.actions = actions
        self.resets = resets
        self.touches = touches
        self.isUI = accounting.contains { $0 != .unattached }
    }
}
