import LifetraceCore
import LifetraceFormat

/// Interprets lifecycle models (``LifecycleModel``) over a stream of events: one engine, any number of models.
///
/// Each model is compiled into flat tables indexed by event kind and state, made of plain values, so that an
/// event costs a few array reads per model and no reference counting.
struct ModelEngine {
    /// A finding the engine reports: the rule, a message, and for budgets the measured value and the budget.
    struct Report {
        var rule: String
        var message: String
        var scene: String?
        var measured: Int64?
        var budget: Int64?
    }

    struct CompiledTransition {
        var phase: ScenePhase?
        var from: UInt64
        var to: Int
        var rule: Int
    }

    struct HandlerBudget {
        var phase: ScenePhase?
        var budget: Int64
        var rule: Int
        /// The budget's name, for per-scene overrides.
        var name: String
    }

    /// A set of event kinds, as 256 bits.
    struct KindSet {
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

        mutating func insert(_ tag: Int) {
            switch tag >> 6 {
            case 0: words.0 |= 1 << UInt64(tag & 63)
            case 1: words.1 |= 1 << UInt64(tag & 63)
            case 2: words.2 |= 1 << UInt64(tag & 63)
            default: words.3 |= 1 << UInt64(tag & 63)
            }
        }

        @inline(__always)
        func contains(_ tag: Int) -> Bool {
            let word: UInt64
            switch tag >> 6 {
            case 0: word = words.0
            case 1: word = words.1
            case 2: word = words.2
            default: word = words.3
            }
            return word & (1 << UInt64(tag & 63)) != 0
        }
    }

    struct Instance {
        var key: String
        var state: Int
        var since: Int64
        var times = StateTimes()

        /// Adds the time since the last change to the current state, counted as `accounting`, and starts
        /// the next stretch at `t`; returns the stretch's length and start.
        @inline(__always)
        mutating func close(as accounting: LifecycleModel.Accounting, at t: Int64) -> (elapsed: Int64, start: Int64) {
            let start = since
            let elapsed = max(0, t - start)
            switch accounting {
            case .active: times.active += elapsed
            case .inactive: times.inactive += elapsed
            case .background: times.background += elapsed
            case .none: break
            }
            since = t
            return (elapsed, start)
        }
    }

    /// How many instances of the UI models are in each kind of state.
    struct UICounts {
        var active = 0
        var inactive = 0
        var background = 0

        mutating func add(_ accounting: LifecycleModel.Accounting, _ delta: Int) {
            switch accounting {
            case .active: active += delta
            case .inactive: inactive += delta
            case .background: background += delta
            case .none: break
            }
        }

        /// `.active` if any instance is active, `.inactive` if any is in the foreground, `.background` if any
        /// is in the background, `.none` if none is attached.
        var state: LifecycleModel.Accounting {
            active > 0 ? .active : inactive > 0 ? .inactive : background > 0 ? .background : .none
        }
    }

    /// One model, compiled.
    struct Compiled {
        var name: String
        var names: [String]
        var initial: Int
        var keyedByScene: Bool
        var requiresScene: Bool
        var accounting: [LifecycleModel.Accounting]
        var stateBudget: [(budget: Int64, rule: Int, name: String)?]
        /// Transitions of kind `tag` are `transitions[transitionStart[tag] ..< transitionStart[tag + 1]]`.
        var transitionStart: [Int]
        var transitions: [CompiledTransition]
        /// Transitions on custom events, by label (`custom.onResume` → `onResume`): models of other lifecycles.
        var customTransitions: [String: [CompiledTransition]]
        /// Per state: (kinds, rule) of its violations.
        var violations: [[(kinds: KindSet, rule: Int)]]
        var budgets: [[HandlerBudget]]
        /// Kinds with a handler budget.
        var budgeted: KindSet
        /// What an event does in each state, by state, phase and kind: see ``Action``.
        var actions: [UInt8]
        /// The smallest limit a state's budget has for any scene (`.max` for a state with no budget): an
        /// episode within it needs no closer look.
        var stateLimit: [Int64]
        var resets: KindSet
        /// Kinds the model looks at: transitions, violations or budgets.
        var touches: KindSet
        var isUI: Bool
        var instances: [Instance] = []
        var index: [String: Int] = [:]
        /// The instance of each string of the current block used as a key, valid when tagged with the
        /// current ``generation`` (`generation << 32 | instance`).
        var blockInstances: [UInt64] = []
        /// Bumped at each block and each reset, invalidating ``blockInstances`` at once.
        var generation: UInt64 = 1
        /// The instance of events without a key (`-1` until looked up).
        var keyless: Int32 = -1
    }

    /// What an event does to an instance in a given state, precomputed from the model.
    enum Action {
        /// Legal, and the state stays.
        static let stay: UInt8 = 0xFD
        /// A finding or a transition that depends on more than the kind: take the table-by-table path.
        static let examine: UInt8 = 0xFE
        // Any other value: legal, and the instance moves to that state.

        /// The index of `(state, phase, tag)` in ``Compiled/actions``.
        @inline(__always)
        static func index(state: Int, phase: ScenePhase?, tag: Int) -> Int {
            ((state << 2) | (phase.map { Int($0.rawValue) + 1 } ?? 0)) << 8 | tag
        }
    }

    private(set) var models: [Compiled]
    /// Budgets set for particular scenes, by scene and budget name (`nil`: off for that scene).
    private let sceneBudgets: [String: [String: Int64?]]
    /// When set, every closed stretch of a UI state is logged here: (instance key, state, start, end).
    var segmentLog: [(key: String, state: LifecycleModel.Accounting, start: Int64, end: Int64)]?
    /// Rule ids, indexed by the `rule` numbers of the tables.
    private var rules: [String] = []
    /// Times of scene instances of earlier processes.
    private var retired: [(key: String, times: StateTimes)] = []
    private var retiredOthers = StateTimes()
    /// Where the UI is: `.active` if any UI instance is active, `.inactive` if any is in the foreground,
    /// `.background` if any is in the background, `.none` if none is attached.
    var uiState: LifecycleModel.Accounting { uiCounts.state }
    /// The UI instances by kind of state, kept up to date as instances appear, move and go.
    private var uiCounts = UICounts()

    init(models: [LifecycleModel], header: TraceHeader?, configuration: AnalysisConfiguration) {
        let manifest = header?.sceneManifest
        var rules: [String] = []
        func rule(_ id: String) -> Int {
            if let index = rules.firstIndex(of: id) { return index }
            rules.append(id)
            return rules.count - 1
        }
        self.models = models.compactMap { model in
            if let wanted = model.appliesWhenSceneManifest {
                guard let manifest, wanted == manifest else { return nil }
            }
            return ModelEngine.compile(model, configuration: configuration, rule: rule)
        }
        self.rules = rules
        self.sceneBudgets = configuration.sceneBudgets
    }

    /// The limit of the budget `name` for `scene`: its per-scene setting if the configuration has one.
    @inline(__always)
    private func limitFor(_ name: String, default limit: Int64, scene: String?) -> Int64 {
        guard !sceneBudgets.isEmpty, let scene, let override = sceneBudgets[scene]?[name] else { return limit }
        return override ?? .max
    }

    private static func matches(_ pattern: String, _ name: String) -> Bool {
        if pattern == "*" { return true }
        if pattern.hasSuffix("*") { return name.hasPrefix(String(pattern.dropLast())) }
        return pattern == name
    }

    private static func compile(
        _ model: LifecycleModel, configuration: AnalysisConfiguration, rule: (String) -> Int
    ) -> Compiled {
        let names = model.states.keys.sorted()
        let number = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        var byKind = [[CompiledTransition]](repeating: [], count: 256)
        var customTransitions: [String: [CompiledTransition]] = [:]
        var touches = KindSet()
        for transition in model.transitions {
            let from = transition.from.reduce(UInt64(0)) { $0 | 1 << UInt64(number[$1]!) }
            let compiled = CompiledTransition(phase: transition.phase, from: from, to: number[transition.to]!,
                                              rule: rule(transition.rule))
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
        var transitions: [CompiledTransition] = []
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
                let hit = violation.events.map { $0.contains { matches($0, kind.name) } } ?? modelKinds.contains(tag)
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
        let stateBudget: [(budget: Int64, rule: Int, name: String)?] = names.map { name in
            guard let entry = model.stateBudgets[name] else { return nil }
            return (configuration.budget(entry.budget) ?? .max, rule(entry.rule), entry.budget)
        }
        let stateLimit = stateBudget.map { budget -> Int64 in
            guard let budget else { return .max }
            let overrides = configuration.sceneBudgets.values.compactMap { $0[budget.name] }.map { $0 ?? .max }
            return ([budget.budget] + overrides).min()!
        }
        var budgeted = KindSet()
        for tag in 0..<256 where !budgets[tag].isEmpty { budgeted.insert(tag) }
        // The table: what the table-by-table path would do with each kind, phase and state, when that is
        // a plain legal move or nothing.
        var actions = [UInt8](repeating: Action.examine, count: names.count << 10)
        for state in names.indices {
            for phase in [nil] + ScenePhase.allCases.map(Optional.some) {
                for tag in 0..<256 where tag != Int(EventKind.custom.rawValue) {
                    if violations[state].contains(where: { $0.kinds.contains(tag) }) { continue }
                    let candidates = transitions[transitionStart[tag]..<transitionStart[tag + 1]]
                    let action: UInt8
                    if let transition = candidates.first(where: { $0.phase == nil || $0.phase == phase }) {
                        guard transition.from & (1 << UInt64(state)) != 0 else { continue }
                        action = UInt8(transition.to)
                    } else {
                        action = Action.stay
                    }
                    actions[Action.index(state: state, phase: phase, tag: tag)] = action
                }
            }
        }
        return Compiled(
            name: model.name, names: names, initial: number[model.initial]!,
            keyedByScene: model.instanceField == "scene", requiresScene: model.requireField == "scene",
            accounting: accounting, stateBudget: stateBudget, transitionStart: transitionStart,
            transitions: transitions, customTransitions: customTransitions, violations: violations, budgets: budgets,
            budgeted: budgeted, actions: actions, stateLimit: stateLimit, resets: resets, touches: touches,
            isUI: accounting.contains { $0 != .none })
    }

    /// A new block begins: its strings are new, so are the instances they name.
    mutating func beginBlock(_ block: borrowing EventBlock) {
        for m in models.indices where models[m].keyedByScene {
            models[m].generation += 1
            let missing = block.strings.count - models[m].blockInstances.count
            if missing > 0 { models[m].blockInstances.append(contentsOf: repeatElement(0, count: missing)) }
        }
    }

    /// Feeds one event, `block.records[row]`; appends a report for each finding.
    mutating func consume(_ event: EventRecord, row: Int, of block: borrowing EventBlock, reports: inout [Report]) {
        let tag = Int(event.kind.rawValue)
        for m in models.indices where models[m].touches.contains(tag) {
            if models[m].resets.contains(tag) {
                reset(model: m, at: event.t)
                continue
            }
            if models[m].requiresScene, !event.hasScene { continue }
            if event.kind == .custom {
                guard let label = block.string(event.label), let transitions = models[m].customTransitions[label] else { continue }
                let i = instance(model: m, event, of: block)
                let state = models[m].instances[i].state
                let transition = transitions[0]
                if transition.from & (1 << UInt64(state)) == 0 {
                    reports.append(Report(rule: rules[transition.rule],
                                  message: "\(block.eventName(at: row)) while \(models[m].name) is \(models[m].names[state])",
                                  scene: block.string(event.scene)))
                }
                move(model: m, instance: i, to: transition.to, at: event.t, &reports)
                continue
            }
            let i = instance(model: m, event, of: block)
            let state = models[m].instances[i].state
            let action = models[m].actions[Action.index(state: state, phase: event.phase, tag: tag)]
            if action == Action.examine {
                examine(model: m, instance: i, state: state, event, row: row, of: block, reports: &reports)
            } else if action != Action.stay {
                move(model: m, instance: i, to: Int(action), at: event.t, &reports)
            }
            if event.fields.contains(.dur), models[m].budgeted.contains(tag) {
                for budget in models[m].budgets[tag] where budget.phase == nil || budget.phase == event.phase {
                    let scene = block.string(event.scene)
                    let limit = limitFor(budget.name, default: budget.budget, scene: scene)
                    guard event.dur > limit else { continue }
                    reports.append(Report(rule: rules[budget.rule],
                                  message: "\(block.eventName(at: row)) handler took \(Nanoseconds.short(event.dur)), over its \(Nanoseconds.short(limit))",
                                  scene: scene, measured: event.dur, budget: limit))
                }
            }
        }
    }

    /// The table-by-table path for an event the action table leaves to it: violations and illegal moves.
    private mutating func examine(
        model m: Int, instance i: Int, state: Int, _ event: EventRecord, row: Int, of block: borrowing EventBlock,
        reports: inout [Report]
    ) {
        let tag = Int(event.kind.rawValue)
        var reported = false
        for violation in models[m].violations[state] where violation.kinds.contains(tag) {
            reports.append(Report(rule: rules[violation.rule],
                          message: "\(block.eventName(at: row)) while \(models[m].name) is \(models[m].names[state])",
                          scene: block.string(event.scene)))
            reported = true
            break
        }
        for position in models[m].transitionStart[tag]..<models[m].transitionStart[tag + 1] {
            let transition = models[m].transitions[position]
            guard transition.phase == nil || transition.phase == event.phase else { continue }
            if transition.from & (1 << UInt64(state)) == 0, !reported {
                let phase = event.phase.map { " " + $0.name } ?? ""
                reports.append(Report(rule: rules[transition.rule],
                              message: "\(block.eventName(at: row))\(phase) while \(models[m].name) is \(models[m].names[state])",
                              scene: block.string(event.scene)))
            }
            move(model: m, instance: i, to: transition.to, at: event.t, &reports)
            break
        }
    }

    /// The instance of model `m` that `event` is about: by its scene for keyed models, the one instance
    /// otherwise. Looked up by name once per block and key, created on first sight.
    @inline(__always)
    private mutating func instance(model m: Int, _ event: EventRecord, of block: borrowing EventBlock) -> Int {
        if models[m].keyedByScene, event.hasScene {
            let cached = models[m].blockInstances[Int(event.scene)]
            if cached >> 32 == models[m].generation { return Int(truncatingIfNeeded: cached & 0xFFFF_FFFF) }
            let i = instance(model: m, key: block.strings[Int(event.scene)], at: event.t)
            models[m].blockInstances[Int(event.scene)] = models[m].generation << 32 | UInt64(i)
            return i
        }
        if models[m].keyless >= 0 { return Int(models[m].keyless) }
        let i = instance(model: m, key: "", at: event.t)
        models[m].keyless = Int32(i)
        return i
    }

    private mutating func instance(model m: Int, key: String, at t: Int64) -> Int {
        if let known = models[m].index[key] { return known }
        let i = models[m].instances.count
        models[m].instances.append(Instance(key: key, state: models[m].initial, since: t))
        if models[m].isUI { uiCounts.add(models[m].accounting[models[m].initial], 1) }
        models[m].index[key] = i
        return i
    }

    private mutating func move(model m: Int, instance i: Int, to state: Int, at t: Int64, _ reports: inout [Report]) {
        let old = models[m].instances[i].state
        guard old != state else { return }
        if models[m].isUI {
            uiCounts.add(models[m].accounting[old], -1)
            uiCounts.add(models[m].accounting[state], 1)
        }
        close(model: m, instance: i, at: t, &reports)
        models[m].instances[i].state = state
    }

    /// Adds the time since the last change to the instance's current state, checking the state's budget.
    private mutating func close(model m: Int, instance i: Int, at t: Int64, _ reports: inout [Report]) {
        let state = models[m].instances[i].state
        let accounting = models[m].accounting[state]
        let (elapsed, start) = models[m].instances[i].close(as: accounting, at: t)
        if segmentLog != nil, accounting != .none, elapsed > 0 {
            segmentLog?.append((models[m].instances[i].key, accounting, start, t))
        }
        if elapsed > models[m].stateLimit[state], let budget = models[m].stateBudget[state],
            elapsed > limitFor(budget.name, default: budget.budget, scene: models[m].instances[i].key) {
            let key = models[m].instances[i].key
            let limit = limitFor(budget.name, default: budget.budget, scene: key)
            reports.append(Report(rule: rules[budget.rule],
                          message: "\(models[m].name) \(key) was \(models[m].names[state]) for \(Nanoseconds.short(elapsed)), over its \(Nanoseconds.short(limit))",
                          scene: key.isEmpty ? nil : key, measured: elapsed, budget: limit))
        }
    }

    /// A new process: keyed instances (scenes) are gone until their events bring them back; a keyless
    /// instance starts again in the initial state. Times are kept.
    private mutating func reset(model m: Int, at t: Int64) {
        var ignored: [Report] = []
        for i in models[m].instances.indices {
            close(model: m, instance: i, at: t, &ignored)
            if models[m].isUI { uiCounts.add(models[m].accounting[models[m].instances[i].state], -1) }
            models[m].instances[i].state = models[m].initial
            if models[m].isUI, !models[m].keyedByScene { uiCounts.add(models[m].accounting[models[m].initial], 1) }
        }
        guard models[m].keyedByScene else { return }
        if models[m].isUI {
            // Scenes of earlier processes: the first ones by name, the rest in one bucket, so memory stays flat.
            for instance in models[m].instances {
                if retired.count < 1000 {
                    retired.append((instance.key, instance.times))
                } else {
                    retiredOthers.add(instance.times)
                }
            }
        }
        models[m].instances.removeAll(keepingCapacity: true)
        models[m].index.removeAll(keepingCapacity: true)
        models[m].generation += 1
        models[m].keyless = -1
    }

    /// Closes every instance's accounting at `t` (the end of the trace).
    mutating func finish(at t: Int64) {
        var ignored: [Report] = []
        for m in models.indices {
            for i in models[m].instances.indices { close(model: m, instance: i, at: t, &ignored) }
        }
    }

    /// The states of the instances of the model `name`, by instance key.
    func states(of name: String) -> [(key: String, state: String)] {
        guard let model = models.first(where: { $0.name == name }) else { return [] }
        return model.instances.map { ($0.key, model.names[$0.state]) }
    }

    /// Time in each state per instance of the UI models, by instance key (`app` for a keyless model), in the
    /// order the instances first appeared.
    var instanceTimes: [(key: String, times: StateTimes)] {
        var order: [String] = []
        var totals: [String: StateTimes] = [:]
        let current = models.filter(\.isUI).flatMap { model in model.instances.map { ($0.key, $0.times) } }
        for (key, times) in retired + current {
            let name = key.isEmpty ? "app" : key
            if totals[name] == nil { order.append(name) }
            totals[name, default: StateTimes()].add(times)
        }
        var result = order.map { ($0, totals[$0]!) }
        if retiredOthers != StateTimes() { result.append(("(other scenes)", retiredOthers)) }
        return result
    }
}
