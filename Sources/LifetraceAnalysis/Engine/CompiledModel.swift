// A model compiled to tables and the code that steps it, together: the layout of the tables is the stepping
// code's contract.

import LifetraceCore
import LifetraceFormat

/// One ``LifecycleModel`` compiled into flat tables indexed by state, phase and event kind, with the
/// instances it tracks. ``ModelEngine`` hands it the events it touches, one mutable access per event.
struct CompiledModel {
    struct Transition {
        var phase: ScenePhase?
        var from: UInt64
        var to: Int
        /// The rule's number; -1 for a transition legal in every state.
        var rule: Int
    }

    struct HandlerBudget {
        var phase: ScenePhase?
        var budget: Int64
        var rule: Int
        /// The budget's name, for per-scene overrides.
        var name: Budget
    }

    struct Instance {
        var key: String
        var state: Int
        var since: Int64
        var times = StateTimes()

        /// Adds the time since the last change to the current state, counted as `accounting`, and starts
        /// the next stretch, in state `next`, at `t`; returns the stretch's length and start.
        @inline(__always)
        mutating func close(as accounting: LifecycleModel.Accounting, at t: Int64, next: Int) -> (elapsed: Int64, start: Int64) {
            let start = since
            let elapsed = max(0, t - start)
            times.add(elapsed, as: accounting)
            since = t
            state = next
            return (elapsed, start)
        }
    }

    /// What an event does to an instance in a given state, precomputed from the model.
    enum Action {
        /// Legal, and the state stays.
        static let stay: UInt8 = 0xFD
        /// A finding or a transition that depends on more than the kind: take the table-by-table path.
        static let examine: UInt8 = 0xFE
        /// With a state: legal, and the instance moves to that state, into or out of a state whose time counts
        /// otherwise when left at once (``CompiledModel/atOnceMove(instance:from:to:_:index:previousT:shared:reports:)``).
        static let atOnceFlag: UInt8 = 0x80
        // Any other value: legal, and the instance moves to that state.

        /// The index of `(state, phase, tag)` in ``CompiledModel/actions``.
        @inline(__always)
        static func index(state: Int, phase: ScenePhase?, tag: Int) -> Int {
            ((state << 2) | (phase.map { Int($0.rawValue) + 1 } ?? 0)) << 8 | tag
        }
    }

    let name: String
    let names: [String]
    let initial: Int
    let keyedByScene: Bool
    let requiresScene: Bool
    let accounting: [LifecycleModel.Accounting]
    let stateBudget: [(budget: Int64, rule: Int, name: Budget)?]
    /// The smallest limit a state's budget has for any scene (`.max` for a state with no budget): an
    /// episode within it needs no closer look.
    let stateLimit: [Int64]
    /// Transitions of kind `tag` are `transitions[transitionStart[tag] ..< transitionStart[tag + 1]]`.
    let transitionStart: [Int]
    let transitions: [Transition]
    /// Transitions on custom events, by label (`custom.onResume` → `onResume`): models of other lifecycles.
    let customTransitions: [String: [Transition]]
    /// Per state: (kinds, rule) of its violations.
    let violations: [[(kinds: KindSet, rule: Int)]]
    let budgets: [[HandlerBudget]]
    /// By kind, the smallest limit any of its handler budgets has for any scene (`.max` for a kind with no
    /// budget): a handler within it needs no closer look.
    let handlerLimit: [Int64]
    /// Per state, whether its time counts otherwise when it is left at once (``LifecycleModel/LeftAtOnce``). A
    /// move into such a state, and one out of it by an event of its kinds, is flagged in the action table
    /// (``Action/atOnceFlag``), so a plain move reads nothing more.
    let waitsAtOnce: [Bool]
    /// For those states, the kinds that leave them at once, as four words of 64 bits per state (state `s`, tag
    /// `t`: bit `t & 63` of word `4s + t >> 6`), and what their time then counts as (`none` for other states).
    private let atOnceKindWords: [UInt64]
    private let atOnceAccounting: [LifecycleModel.Accounting]
    /// What an event does in each state, by state, phase and kind: see ``Action``.
    let actions: [UInt8]
    let resets: KindSet
    /// Kinds the model looks at: transitions, violations or budgets.
    let touches: KindSet
    let isUI: Bool

    private(set) var instances: [Instance] = []
    /// The instance that last entered a state of ``waitsAtOnce``: which, since when, the index in the trace of the
    /// event that brought it there, and the end of that event's handler (events before it are the handler's).
    /// One at a time: a second instance entering is the first one's next event.
    private var entered: (instance: Int, since: Int64, index: Int, handlerEnd: Int64)?
    /// The instances by key, once there are ``linearLimit`` or more; below that, a scan finds a key sooner
    /// than a hash of it.
    private var index: [String: Int] = [:]
    private static let linearLimit = 16
    /// The instance of each key of the current block, by slot: slot 0 for events without a key (and every
    /// event of a keyless model), slot `i + 1` for the block's string `i`. Valid when tagged with the current
    /// ``generation`` (`generation << 32 | instance`).
    private var blockInstances: [UInt64] = []
    /// All ones for a model keyed by scene, zero otherwise: an event's slot is `(scene + 1) & slotMask`,
    /// with no branch (an absent scene is -1).
    private let slotMask: Int
    /// Bumped at each block and each reset, invalidating ``blockInstances`` at once.
    private var generation: UInt64 = 1
    /// The instance of events without a key (`-1` until looked up).
    private var keyless = -1

    // MARK: - Compiling

    /// The smallest limit the budget `name` (by default `limit`) has for any scene.
    private static func smallestLimit(_ limit: Int64, named name: Budget, configuration: AnalysisConfiguration) -> Int64 {
        let overrides = configuration.sceneBudgets.values.compactMap { $0[name] }.map { $0 ?? .max }
        return ([limit] + overrides).min()!
    }

    private static func matches(_ pattern: String, _ name: String) -> Bool {
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
            let compiled = Transition(phase: transition.phase, from: from, to: number[transition.to]!,
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
                let hit = violation.events.map { $0.contains { Self.matches($0, kind.name) } } ?? modelKinds.contains(tag)
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
            budgets[Int(kind.rawValue)].append(HandlerBudget(phase: budget.phase, budget: limit, rule: rule(budget.rule),
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
        let atOnce: [(kinds: KindSet, accounting: LifecycleModel.Accounting)?] = names.map { name in
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
        self.keyedByScene = model.instanceField == "scene"
        self.slotMask = keyedByScene ? ~0 : 0
        self.requiresScene = model.requireField == "scene"
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
        self.handlerLimit = budgets.map { list in
            list.map { Self.smallestLimit($0.budget, named: $0.name, configuration: configuration) }.min() ?? .max
        }
        self.atOnceKindWords = atOnce.flatMap { rule in
            (0..<4).map { word in (0..<64).reduce(UInt64(0)) { $0 | (rule?.kinds.contains(word << 6 | $1) == true ? 1 << UInt64($1) : 0) } }
        }
        self.atOnceAccounting = atOnce.map { $0?.accounting ?? .none }
        self.waitsAtOnce = waitsAtOnce
        self.actions = actions
        self.resets = resets
        self.touches = touches
        self.isUI = accounting.contains { $0 != .none }
    }

    // MARK: - Reading events

    /// A new block begins: its strings are new, so are the instances they name.
    mutating func beginBlock(stringCount: Int) {
        generation += 1
        let missing = (keyedByScene ? stringCount + 1 : 1) - blockInstances.count
        if missing > 0 { blockInstances.append(contentsOf: repeatElement(0, count: missing)) }
    }

    /// Reads one event of a kind the model touches (but does not reset on); `row` is its row in `block`.
    @inline(__always)
    mutating func step(
        _ event: EventRecord, tag: Int, row: Int, of block: borrowing EventBlock, index: Int, previousT: Int64,
        shared: inout ModelEngine.Shared,
        reports: inout [ModelEngine.Report]
    ) {
        if requiresScene, event.scene < 0 { return }
        if event.kind == .custom {
            stepCustom(event, row: row, of: block, index: index, previousT: previousT, shared: &shared, reports: &reports)
            return
        }
        let i = instance(for: event, of: block, shared: &shared)
        let state = instances[i].state
        let action = actions[Action.index(state: state, phase: event.phase, tag: tag)]
        if action == Action.examine {
            examine(instance: i, state: state, event, row: row, of: block, index: index, previousT: previousT, shared: &shared,
                    reports: &reports)
        } else if action != Action.stay {
            if action & Action.atOnceFlag == 0 {
                move(instance: i, to: Int(action), at: event.t, shared: &shared, reports: &reports)
            } else {
                atOnceMove(instance: i, from: state, to: Int(action & ~Action.atOnceFlag), event, index: index, previousT: previousT,
                           shared: &shared, reports: &reports)
            }
        }
        // Nearly every handler is within the smallest limit (`dur` is 0 when absent).
        if event.dur > handlerLimit[tag], event.fields.contains(.dur) {
            checkHandler(tag: tag, dur: event.dur, phase: event.phase, scene: block.string(event.scene),
                         name: block.eventName(at: row), shared: &shared, reports: &reports)
        }
    }

    /// Checks a handler of the kind `tag` that took `dur` against the model's handler budgets: for an event
    /// with its `dur`, or for a `handler.return` that brings the duration later. Rare: kept out of line.
    ///
    /// With `unreturned`, `dur` is a lower bound: a handler written unfinished whose `handler.return` never came,
    /// still running at its process's last event.
    @inline(never)
    mutating func checkHandler(
        tag: Int, dur: Int64, phase: ScenePhase?, scene: String?, name: @autoclosure () -> String, unreturned: Bool = false,
        shared: inout ModelEngine.Shared, reports: inout [ModelEngine.Report]
    ) {
        guard dur > handlerLimit[tag] else { return }
        for budget in budgets[tag] where budget.phase == nil || budget.phase == phase {
            let limit = shared.limit(budget.name, default: budget.budget, scene: scene)
            guard dur > limit else { continue }
            let message = unreturned
                ? "\(name()) handler ran at least \(Nanoseconds.short(dur)): written unfinished, it had not returned by its process's last event; over its \(Nanoseconds.short(limit))"
                : "\(name()) handler took \(Nanoseconds.short(dur)), over its \(Nanoseconds.short(limit))"
            reports.append(ModelEngine.Report(rule: shared.rules[budget.rule], message: message, scene: scene, measured: dur,
                                              budget: limit))
        }
    }

    /// A custom event: a transition of a model of another lifecycle, by label.
    private mutating func stepCustom(
        _ event: EventRecord, row: Int, of block: borrowing EventBlock, index: Int, previousT: Int64,
        shared: inout ModelEngine.Shared, reports: inout [ModelEngine.Report]
    ) {
        guard let label = block.label(of: event), let transition = customTransitions[label]?.first else { return }
        let i = instance(for: event, of: block, shared: &shared)
        let state = instances[i].state
        if transition.from & (1 << UInt64(state)) == 0 {
            reports.append(outOfOrder(transition.rule, event, row: row, of: block, state: state, shared: shared))
        }
        if waitsAtOnce[state] || waitsAtOnce[transition.to] {
            atOnceMove(instance: i, from: state, to: transition.to, event, index: index, previousT: previousT, shared: &shared,
                       reports: &reports)
        } else {
            move(instance: i, to: transition.to, at: event.t, shared: &shared, reports: &reports)
        }
    }

    /// The table-by-table path for an event the action table leaves to it: violations and illegal moves.
    private mutating func examine(
        instance i: Int, state: Int, _ event: EventRecord, row: Int, of block: borrowing EventBlock, index: Int,
        previousT: Int64, shared: inout ModelEngine.Shared, reports: inout [ModelEngine.Report]
    ) {
        let tag = Int(event.tag)
        var reported = false
        for violation in violations[state] where violation.kinds.contains(tag) {
            reports.append(outOfOrder(violation.rule, event, row: row, of: block, state: state, shared: shared))
            reported = true
            break
        }
        for position in transitionStart[tag]..<transitionStart[tag + 1] {
            let transition = transitions[position]
            guard transition.phase == nil || transition.phase == event.phase else { continue }
            if transition.from & (1 << UInt64(state)) == 0, !reported {
                reports.append(outOfOrder(transition.rule, event, row: row, of: block, state: state, shared: shared,
                                          showingPhase: true))
            }
            if waitsAtOnce[state] || waitsAtOnce[transition.to] {
                atOnceMove(instance: i, from: state, to: transition.to, event, index: index, previousT: previousT, shared: &shared,
                           reports: &reports)
            } else {
                move(instance: i, to: transition.to, at: event.t, shared: &shared, reports: &reports)
            }
            break
        }
    }

    /// The finding for `event` arriving in `state`, where the model does not allow it.
    private func outOfOrder(
        _ rule: Int, _ event: EventRecord, row: Int, of block: borrowing EventBlock, state: Int,
        shared: ModelEngine.Shared, showingPhase: Bool = false
    ) -> ModelEngine.Report {
        let phase = showingPhase ? event.phase.map { " " + $0.name } ?? "" : ""
        return ModelEngine.Report(rule: shared.rules[rule],
                                  message: "\(block.eventName(at: row))\(phase) while \(name) is \(names[state])",
                                  scene: block.string(event.scene))
    }

    /// The instance `event` is about: by its scene for keyed models, the one instance otherwise. Looked up
    /// by name once per block and key, created on first sight.
    @inline(__always)
    private mutating func instance(for event: EventRecord, of block: borrowing EventBlock, shared: inout ModelEngine.Shared) -> Int {
        let slot = (Int(event.scene) &+ 1) & slotMask
        let cached = blockInstances[slot]
        if cached >> 32 == generation { return Int(truncatingIfNeeded: cached & 0xFFFF_FFFF) }
        return lookUpInstance(slot: slot, at: event.t, of: block, shared: &shared)
    }

    /// The instance of `slot` (see ``blockInstances``), the first time the block uses it.
    private mutating func lookUpInstance(slot: Int, at t: Int64, of block: borrowing EventBlock, shared: inout ModelEngine.Shared) -> Int {
        let i: Int
        if slot == 0 {
            if keyless < 0 { keyless = instance(key: "", at: t, shared: &shared) }
            i = keyless
        } else {
            i = instance(key: block.strings[slot - 1], at: t, shared: &shared)
        }
        blockInstances[slot] = generation << 32 | UInt64(i)
        return i
    }

    private mutating func instance(key: String, at t: Int64, shared: inout ModelEngine.Shared) -> Int {
        let next = instances.count
        if next < Self.linearLimit {
            if let known = instances.firstIndex(where: { $0.key == key }) { return known }
        } else {
            if next == Self.linearLimit {
                for (i, instance) in instances.enumerated() { index[instance.key] = i }
            }
            // One hash: the next instance number goes in as the default, and stays there when the key is new.
            let i = Self.value(of: &index[key, default: next])
            guard i == next else { return i }
        }
        instances.append(Instance(key: key, state: initial, since: t))
        if isUI { shared.uiCounts.add(accounting[initial], 1) }
        return next
    }

    /// The value of an `inout` access: through a dictionary's `default:` subscript, that access stores
    /// the default when the key is missing.
    private static func value(of entry: inout Int) -> Int { entry }

    // MARK: - Time in each state

    @inline(__always)
    private mutating func move(
        instance i: Int, to state: Int, at t: Int64, shared: inout ModelEngine.Shared, reports: inout [ModelEngine.Report]
    ) {
        let old = instances[i].state
        guard old != state else { return }
        if isUI {
            shared.uiCounts.add(accounting[old], -1)
            shared.uiCounts.add(accounting[state], 1)
        }
        close(instance: i, at: t, next: state, shared: &shared, reports: &reports)
    }

    // MARK: - States left at once

    /// A legal move of instance `i` from `state` to `target` with `event`, into or out of a state of
    /// ``waitsAtOnce``: out of it, its time there may count otherwise (``leftAtOnce(instance:state:_:index:previousT:shared:)``);
    /// into it, the process's next event will tell.
    @inline(never)
    private mutating func atOnceMove(
        instance i: Int, from state: Int, to target: Int, _ event: EventRecord, index: Int, previousT: Int64,
        shared: inout ModelEngine.Shared, reports: inout [ModelEngine.Report]
    ) {
        if waitsAtOnce[state], target != state,
            let alternative = leftAtOnce(instance: i, state: state, event, index: index, previousT: previousT, shared: &shared) {
            // The move, its time since it entered the state counted otherwise.
            if isUI {
                shared.uiCounts.add(accounting[state], -1)
                shared.uiCounts.add(accounting[target], 1)
            }
            close(instance: i, in: state, at: event.t, next: target, as: alternative, shared: &shared, reports: &reports)
        } else {
            move(instance: i, to: target, at: event.t, shared: &shared, reports: &reports)
        }
        if target != state, waitsAtOnce[target] { entered = (i, event.t, index, event.t &+ max(0, event.dur)) }
    }

    /// Whether instance `i`, in `state`, leaves it at once with `event` (the `index`th of the trace, the
    /// process's event before it at `previousT`): `event` is of the kinds that leave the state at once, and the process's
    /// next event after the one that brought the instance there — or every event between fell within that
    /// event's handler — with no suspension between. Returns what the instance's time in the state then counts
    /// as, and tells the analyzer (``ModelEngine/Shared/recounted``).
    private mutating func leftAtOnce(
        instance i: Int, state: Int, _ event: EventRecord, index: Int, previousT: Int64, shared: inout ModelEngine.Shared
    ) -> LifecycleModel.Accounting? {
        let tag = Int(event.tag)
        guard (atOnceKindWords[state << 2 | tag >> 6] >> UInt64(tag & 63)) & 1 != 0, let entered, entered.instance == i,
            entered.since == instances[i].since, shared.suspensionIndex != index
        else { return nil }
        let next = index == entered.index &+ 1
        // Time-ordered: if the event just before is within the handler, so is every one since the entering event.
        let withinHandler = previousT < entered.handlerEnd
        guard next || withinHandler else { return nil }
        self.entered = nil
        let accounting = atOnceAccounting[state]
        shared.recountedIndex = index
        shared.recounted = (entered.since, accounting)
        return accounting
    }

    /// Adds the time since the last change to the instance's current state, checking the state's budget,
    /// and moves it to state `next` (by default, the state it is in).
    @inline(__always)
    private mutating func close(
        instance i: Int, at t: Int64, next: Int? = nil, shared: inout ModelEngine.Shared, reports: inout [ModelEngine.Report]
    ) {
        let state = instances[i].state
        close(instance: i, in: state, at: t, next: next, as: accounting[state], shared: &shared, reports: &reports)
    }

    /// ``close(instance:at:next:shared:reports:)`` of instance `i`, in `state`, the time counted as `kind`.
    @inline(__always)
    private mutating func close(
        instance i: Int, in state: Int, at t: Int64, next: Int?, as kind: LifecycleModel.Accounting,
        shared: inout ModelEngine.Shared, reports: inout [ModelEngine.Report]
    ) {
        // One access to the instance, so one uniqueness check of the array.
        let (elapsed, start) = instances[i].close(as: kind, at: t, next: next ?? state)
        if shared.segmentLog != nil, kind != .none, elapsed > 0 {
            shared.segmentLog?.append((instances[i].key, kind, start, t))
        }
        guard elapsed > stateLimit[state], let budget = stateBudget[state] else { return }
        let key = instances[i].key
        let limit = shared.limit(budget.name, default: budget.budget, scene: key)
        guard elapsed > limit else { return }
        reports.append(ModelEngine.Report(
            rule: shared.rules[budget.rule],
            message: "\(name) \(key) was \(names[state]) for \(Nanoseconds.short(elapsed)), over its \(Nanoseconds.short(limit))",
            scene: key.isEmpty ? nil : key, measured: elapsed, budget: limit))
    }

    /// A new process: keyed instances (scenes) are gone until their events bring them back; a keyless
    /// instance starts again in the initial state. Times are kept; those of scenes go to `shared`.
    mutating func reset(at t: Int64, shared: inout ModelEngine.Shared) {
        entered = nil
        var ignored: [ModelEngine.Report] = []
        for i in instances.indices {
            close(instance: i, at: t, shared: &shared, reports: &ignored)
            if isUI { shared.uiCounts.add(accounting[instances[i].state], -1) }
            instances[i].state = initial
            if isUI, !keyedByScene { shared.uiCounts.add(accounting[initial], 1) }
        }
        guard keyedByScene else { return }
        if isUI {
            for instance in instances { shared.retire(instance) }
        }
        instances.removeAll(keepingCapacity: true)
        if !index.isEmpty { index.removeAll(keepingCapacity: true) }
        generation += 1
        keyless = -1
    }

    /// Closes every instance's accounting at `t` (the end of the trace).
    mutating func finish(at t: Int64, shared: inout ModelEngine.Shared) {
        var ignored: [ModelEngine.Report] = []
        for i in instances.indices { close(instance: i, at: t, shared: &shared, reports: &ignored) }
    }
}
