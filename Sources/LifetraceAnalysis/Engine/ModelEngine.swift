import LifetraceCore

/// Interprets lifecycle models (``LifecycleModel``) over a stream of events: one engine, any number of models.
///
/// Each model is compiled into tables indexed by event kind, so an event costs a few array lookups per model.
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
        var rule: String
    }

    struct CompiledViolation {
        var matches: [Bool]
        var rule: String
    }

    struct Instance {
        var key: String
        var state: Int
        var since: Int64
        var times = StateTimes()
    }

    struct Compiled {
        var model: LifecycleModel
        var names: [String]
        var initial: Int
        var accounting: [LifecycleModel.Accounting]
        var stateBudget: [(budget: Int64, rule: String)?]
        var transitions: [[CompiledTransition]]
        var violations: [[CompiledViolation]]
        var handlerBudgets: [[(phase: ScenePhase?, budget: Int64, rule: String)]]
        var resets: [Bool]
        var relevant: [Bool]
        /// Whether its states say where the UI is (it has active/inactive/background accounting).
        var isUI: Bool
        var instances: [Instance] = []
        var index: [String: Int] = [:]
        var lastKey: String?
        var lastIndex = 0
    }

    private(set) var models: [Compiled]

    init(models: [LifecycleModel], header: TraceHeader?, configuration: AnalysisConfiguration) {
        let manifest = header?.sceneManifest
        self.models = models.compactMap { model in
            if let wanted = model.appliesWhenSceneManifest, let manifest, wanted != manifest { return nil }
            if model.appliesWhenSceneManifest == false, manifest == nil { return nil }
            return ModelEngine.compile(model, configuration: configuration)
        }
    }

    private static func matches(_ pattern: String, _ name: String) -> Bool {
        if pattern == "*" { return true }
        if pattern.hasSuffix("*") { return name.hasPrefix(String(pattern.dropLast())) }
        return pattern == name
    }

    private static func compile(_ model: LifecycleModel, configuration: AnalysisConfiguration) -> Compiled {
        let names = model.states.keys.sorted()
        let number = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        var transitions = [[CompiledTransition]](repeating: [], count: 256)
        var relevant = [Bool](repeating: false, count: 256)
        var handlerBudgets = [[(phase: ScenePhase?, budget: Int64, rule: String)]](repeating: [], count: 256)
        var resets = [Bool](repeating: false, count: 256)
        for transition in model.transitions {
            guard let kind = EventKind(name: transition.event) else { continue }
            let from = transition.from.reduce(UInt64(0)) { $0 | 1 << UInt64(number[$1]!) }
            transitions[Int(kind.rawValue)].append(CompiledTransition(phase: transition.phase, from: from,
                                                                      to: number[transition.to]!, rule: transition.rule))
            relevant[Int(kind.rawValue)] = true
        }
        var violations = [[CompiledViolation]](repeating: [], count: names.count)
        for violation in model.violations {
            var table = [Bool](repeating: false, count: 256)
            for kind in EventKind.allCases where !violation.except.contains(kind.name) {
                table[Int(kind.rawValue)] = violation.events.map { $0.contains { matches($0, kind.name) } }
                    ?? relevant[Int(kind.rawValue)]
            }
            violations[number[violation.state]!].append(CompiledViolation(matches: table, rule: violation.rule))
        }
        for budget in model.handlerBudgets {
            guard let kind = EventKind(name: budget.event), let limit = configuration.budget(budget.budget) else { continue }
            handlerBudgets[Int(kind.rawValue)].append((budget.phase, limit, budget.rule))
        }
        for name in model.resetOn { if let kind = EventKind(name: name) { resets[Int(kind.rawValue)] = true } }
        let accounting = names.map { model.states[$0]! }
        return Compiled(
            model: model, names: names, initial: number[model.initial]!, accounting: accounting,
            stateBudget: names.map { name in
                model.stateBudgets[name].flatMap { entry in configuration.budget(entry.budget).map { ($0, entry.rule) } }
            },
            transitions: transitions, violations: violations, handlerBudgets: handlerBudgets, resets: resets,
            relevant: relevant, isUI: accounting.contains { $0 != .none })
    }

    /// Feeds one event; calls `report` for each finding.
    mutating func consume(_ event: borrowing LifecycleEvent, _ report: (Report) -> Void) {
        let tag = Int(event.kind.rawValue)
        for m in models.indices {
            if models[m].resets[tag] {
                reset(model: m, at: event.t)
                continue
            }
            let key: String
            switch models[m].model.instanceField {
            case "scene"?:
                guard let scene = event.scene else {
                    if models[m].model.requireField == "scene" { continue }
                    key = ""
                    break
                }
                key = scene
            default:
                key = ""
            }
            if let required = models[m].model.requireField, required == "scene", event.scene == nil { continue }
            let transitions = models[m].transitions[tag]
            let violations = models[m].violations
            guard !transitions.isEmpty || violations.contains(where: { !$0.isEmpty }) else { continue }
            let i = instance(model: m, key: key, at: event.t)
            let state = models[m].instances[i].state
            var reported = false
            for violation in violations[state] where violation.matches[tag] {
                report(Report(rule: violation.rule,
                              message: "\(event.eventName) while \(models[m].model.name) is \(models[m].names[state])",
                              scene: event.scene))
                reported = true
                break
            }
            for transition in transitions where transition.phase == nil || transition.phase == event.phase {
                if transition.from & (1 << UInt64(state)) == 0, !reported {
                    report(Report(rule: transition.rule,
                                  message: "\(event.eventName)\(event.phase.map { " " + $0.name } ?? "") while \(models[m].model.name) is \(models[m].names[state])",
                                  scene: event.scene))
                }
                move(model: m, instance: i, to: transition.to, at: event.t, report)
                break
            }
            if let dur = event.dur {
                for budget in models[m].handlerBudgets[tag] where budget.phase == nil || budget.phase == event.phase {
                    if dur > budget.budget {
                        report(Report(rule: budget.rule,
                                      message: "\(event.eventName) handler took \(Nanoseconds.short(dur)), over its \(Nanoseconds.short(budget.budget))",
                                      scene: event.scene, measured: dur, budget: budget.budget))
                    }
                }
            }
        }
    }

    private mutating func instance(model m: Int, key: String, at t: Int64) -> Int {
        if key == models[m].lastKey { return models[m].lastIndex }
        let i: Int
        if let known = models[m].index[key] {
            i = known
        } else {
            i = models[m].instances.count
            models[m].instances.append(Instance(key: key, state: models[m].initial, since: t))
            models[m].index[key] = i
        }
        models[m].lastKey = key
        models[m].lastIndex = i
        return i
    }

    private mutating func move(model m: Int, instance i: Int, to state: Int, at t: Int64, _ report: (Report) -> Void) {
        let old = models[m].instances[i].state
        guard old != state else { return }
        close(model: m, instance: i, at: t, report)
        models[m].instances[i].state = state
        models[m].instances[i].since = t
    }

    /// Adds the time since the last change to the instance's current state, checking the state's budget.
    private mutating func close(model m: Int, instance i: Int, at t: Int64, _ report: (Report) -> Void) {
        let instance = models[m].instances[i]
        let elapsed = max(0, t - instance.since)
        switch models[m].accounting[instance.state] {
        case .active: models[m].instances[i].times.active += elapsed
        case .inactive: models[m].instances[i].times.inactive += elapsed
        case .background: models[m].instances[i].times.background += elapsed
        case .none: break
        }
        if let budget = models[m].stateBudget[instance.state], elapsed > budget.budget {
            report(Report(rule: budget.rule,
                          message: "\(models[m].model.name) \(instance.key) was \(models[m].names[instance.state]) for \(Nanoseconds.short(elapsed)), over its \(Nanoseconds.short(budget.budget))",
                          scene: instance.key.isEmpty ? nil : instance.key, measured: elapsed, budget: budget.budget))
        }
        models[m].instances[i].since = t
    }

    /// A new process: keyed instances (scenes) are gone until their events bring them back; a keyless
    /// instance starts again in the initial state. Their times are kept in ``retired``.
    private mutating func reset(model m: Int, at t: Int64) {
        for i in models[m].instances.indices {
            close(model: m, instance: i, at: t) { _ in }
            models[m].instances[i].state = models[m].initial
        }
        guard models[m].model.instanceField != nil else { return }
        for instance in models[m].instances where models[m].isUI {
            retired.append((instance.key, instance.times))
        }
        models[m].instances.removeAll(keepingCapacity: true)
        models[m].index.removeAll(keepingCapacity: true)
        models[m].lastKey = nil
    }

    /// Times of scene instances of earlier processes.
    private var retired: [(key: String, times: StateTimes)] = []

    /// Closes every instance's accounting at `t` (the end of the trace).
    mutating func finish(at t: Int64) {
        for m in models.indices {
            for i in models[m].instances.indices { close(model: m, instance: i, at: t) { _ in } }
        }
    }

    /// Where the UI is: `.active` if any UI instance is active, `.inactive` if any is in the foreground,
    /// `.background` if any is in the background, `.none` if none is attached.
    var uiState: LifecycleModel.Accounting {
        var best = LifecycleModel.Accounting.none
        for model in models where model.isUI {
            for instance in model.instances {
                switch model.accounting[instance.state] {
                case .active: return .active
                case .inactive: best = .inactive
                case .background where best == .none: best = .background
                default: break
                }
            }
        }
        return best
    }

    /// The states of the instances of the model `name`, by instance key.
    func states(of name: String) -> [(key: String, state: String)] {
        guard let model = models.first(where: { $0.model.name == name }) else { return [] }
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
        return order.map { ($0, totals[$0]!) }
    }
}
