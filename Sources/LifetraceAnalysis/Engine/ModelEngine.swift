import LifetraceCore
import LifetraceFormat

/// Interprets lifecycle models (``LifecycleModel``) over a stream of events: one engine, any number of models.
///
/// Each model is compiled into flat tables indexed by event kind and state (``CompiledModel``), made of
/// plain values; an event goes only to the models that look at its kind, and a legal move costs a table
/// read and the time accounting.
struct ModelEngine: ~Copyable {
    /// A finding the engine reports: the rule, a message, and for budgets the measured value and the budget.
    struct Report {
        var rule: RuleID
        var message: String
        var scene: String?
        var measured: Int64?
        var budget: Int64?
    }

    /// What the models share: where the UI is, the rule ids, the per-scene budgets, the log of closed
    /// stretches and the times of scenes of earlier processes.
    struct Shared {
        /// The UI instances by kind of state, kept up to date as instances appear, move and go.
        var uiCounts = UICounts()
        /// When set, every closed stretch of a UI state is logged here: (instance key, state, start, end).
        var segmentLog: [(key: String, state: ActivationState, start: Int64, end: Int64)]?
        /// Rule ids, indexed by the `rule` numbers of the tables.
        let rules: [RuleID]
        /// Budgets set for particular scenes, by scene and budget name (`nil`: off for that scene).
        let sceneBudgets: [String: [Budget: Int64?]]
        /// The index in the trace of the event at which the analyzer last saw suspension change: a suspension
        /// came between that event and the one before (``CompiledModel/waitsAtOnce``).
        var suspensionIndex = -1
        /// The last time an instance left a state at once (``CompiledModel/waitsAtOnce``): at which event (-1: never),
        /// the start of its time there, and what that time counted as.
        var recountedIndex = -1
        var recounted: (start: Int64, accounting: ActivationState) = (0, .unattached)
        /// Times of scene instances of earlier processes: the first ones by name, the rest in one bucket,
        /// so memory stays flat.
        private(set) var retired: [(key: String, times: StateTimes)] = []
        private(set) var retiredOthers = StateTimes()

        init(rules: [RuleID], sceneBudgets: [String: [Budget: Int64?]]) {
            self.rules = rules
            self.sceneBudgets = sceneBudgets
        }

        /// The limit of the budget `name` for `scene`: its per-scene setting if the configuration has one.
        @inline(__always)
        func limit(_ name: Budget, default limit: Int64, scene: String?) -> Int64 {
            guard !sceneBudgets.isEmpty, let scene, let override = sceneBudgets[scene]?[name] else { return limit }
            return override ?? .max
        }

        mutating func retire(_ instance: CompiledModel.Instance) {
            if retired.count < 1000 {
                retired.append((instance.key, instance.times))
            } else {
                retiredOthers.add(instance.times)
            }
        }
    }

    /// The compiled models, in storage the engine owns alone (it cannot be copied): a model steps in place,
    /// with no uniqueness check of a shared array per event.
    private let models: UnsafeMutableBufferPointer<CompiledModel>
    private var shared: Shared
    /// The models that look at kind `tag` are `tagModels[start ..< end]`, in order, where `tagRanges[tag]`
    /// is `start | end << 32` (one load per event): `m` for a model that reads the event, `~m` (negative) for
    /// one that resets on it.
    private let tagRanges: KindTable<UInt64>
    private let tagModels: [Int]

    /// When set, every closed stretch of a UI state is logged here: (instance key, state, start, end).
    var segmentLog: [(key: String, state: ActivationState, start: Int64, end: Int64)]? {
        get { shared.segmentLog }
        set { shared.segmentLog = newValue }
        // In place: emptying the log keeps its storage, with no copy made first.
        _modify { yield &shared.segmentLog }
    }

    /// Where the UI is: `.active` if any UI instance is active, `.inactive` if any is in the foreground,
    /// `.background` if any is in the background, `.unattached` if none is attached.
    var uiState: ActivationState {
        @inline(__always) get { shared.uiCounts.state }
    }

    /// The models compiled for one scene manifest, one lifecycle and one configuration: what the engines of many
    /// traces with the same header and configuration share (compiling is most of the cost of a small trace).
    struct Blueprint {
        fileprivate let compiled: [CompiledModel]
        fileprivate let tagRanges: [UInt64]
        fileprivate let tagModels: [Int]
        fileprivate let rules: [RuleID]
        fileprivate let sceneBudgets: [String: [Budget: Int64?]]
        /// The scene manifest, the lifecycle and the configuration it was compiled for.
        let manifest: Bool?
        let lifecycle: TraceHeader.Lifecycle
        let configuration: AnalysisConfiguration

        /// Compiles the `models` that apply to a trace whose header says `manifest` and that follows `lifecycle`,
        /// with `configuration`.
        init(
            models: [LifecycleModel], manifest: Bool?, lifecycle: TraceHeader.Lifecycle,
            configuration: AnalysisConfiguration
        ) {
            var rules: [RuleID] = []
            func rule(_ id: RuleID) -> Int {
                if let index = rules.firstIndex(of: id) { return index }
                rules.append(id)
                return rules.count - 1
            }
            let compiled = models.compactMap { model -> CompiledModel? in
                guard model.applies(sceneManifest: manifest, lifecycle: lifecycle) else { return nil }
                return CompiledModel(model, configuration: configuration, rule: rule)
            }
            var tagRanges: [UInt64] = []
            var tagModels: [Int] = []
            for tag in 0..<256 {
                let start = tagModels.count
                for m in compiled.indices where compiled[m].touches.contains(tag) {
                    tagModels.append(compiled[m].resets.contains(tag) ? ~m : m)
                }
                tagRanges.append(UInt64(start) | UInt64(tagModels.count) << 32)
            }
            self.compiled = compiled
            self.tagRanges = tagRanges
            self.tagModels = tagModels
            self.rules = rules
            self.sceneBudgets = configuration.sceneBudgets
            self.manifest = manifest
            self.lifecycle = lifecycle
            self.configuration = configuration
        }

        /// Whether it was compiled for a trace with `header` and `configuration`.
        func fits(_ header: TraceHeader?, _ configuration: AnalysisConfiguration) -> Bool {
            manifest == header?.sceneManifest && lifecycle == header.followedLifecycle
                && self.configuration == configuration
        }
    }

    init(models: [LifecycleModel], header: TraceHeader?, configuration: AnalysisConfiguration) {
        self.init(
            Blueprint(
                models: models, manifest: header?.sceneManifest, lifecycle: header.followedLifecycle,
                configuration: configuration))
    }

    /// An engine with fresh state over models compiled before.
    init(_ blueprint: Blueprint) {
        models = .allocate(capacity: blueprint.compiled.count)
        _ = models.initialize(from: blueprint.compiled)
        tagRanges = KindTable(blueprint.tagRanges)
        tagModels = blueprint.tagModels
        shared = Shared(rules: blueprint.rules, sceneBudgets: blueprint.sceneBudgets)
    }

    deinit {
        models.deinitialize()
        models.deallocate()
    }

    /// A new block begins: its strings are new, so are the instances they name.
    mutating func beginBlock(_ block: borrowing EventBlock) {
        for m in models.indices { models[m].beginBlock(stringCount: block.strings.count) }
    }

    /// Feeds one event, `block.records[row]`, the `index`th of the trace, the process's event before it at
    /// `previousT`; appends a report for each finding.
    ///
    /// Inlined by force (`@_transparent`): past a size, the optimizer leaves even an `@inline(__always)` function
    /// out of the analyzer's loop, and the call costs more than the step.
    @_transparent
    mutating func consume(
        _ event: EventRecord, row: Int, of block: borrowing EventBlock, index: Int, previousT: Int64,
        reports: inout [Report]
    ) {
        let tag = Int(event.tag)
        // The models through a local copy of the pointer: stepping one is then no access to `self`, which
        // `shared` is part of.
        let models = self.models
        let range = tagRanges[event.tag]
        var position = Int(truncatingIfNeeded: range & 0xFFFF_FFFF)
        let end = Int(truncatingIfNeeded: range >> 32)
        while position < end {
            let m = tagModels[position]
            position &+= 1
            if m < 0 {
                models[~m].reset(at: event.t, shared: &shared)
            } else {
                models[m].step(
                    event, tag: tag, row: row, of: block, index: index, previousT: previousT, shared: &shared,
                    reports: &reports)
            }
        }
    }

    /// By tag, whether a model reads or resets on events of the kind.
    var kindsRead: [Bool] {
        (0...255).map { (tag: UInt8) in
            let range = tagRanges[tag]
            return range & 0xFFFF_FFFF != range >> 32
        }
    }

    /// Suspension changed at the `index`th event of the trace (a suspension came between it and the one before).
    mutating func suspensionChanged(at index: Int) {
        shared.suspensionIndex = index
    }

    /// Whether an instance left a state at once with the `index`th event (``CompiledModel/waitsAtOnce``).
    @inline(__always)
    func recounted(at index: Int) -> Bool {
        shared.recountedIndex == index
    }

    /// The last instance that left a state at once: since when it had been there, and what that time counted as.
    var recounted: (start: Int64, accounting: ActivationState) {
        shared.recounted
    }

    /// Whether a model has a handler budget for the kind `tag`.
    func hasHandlerBudget(_ tag: Int) -> Bool {
        models.contains { !$0.budgets[tag].isEmpty }
    }

    /// Judges a handler of the callback `kind` written unfinished whose `handler.return` never came, against
    /// its handler budgets: `bound`, the time from the callback to its process's last event, is a lower bound
    /// of its duration.
    mutating func handlerUnreturned(
        _ kind: EventKind, bound: Int64, phase: ScenePhase?, scene: String?, running: Bool = false,
        reports: inout [Report]
    ) {
        checkHandlers(
            of: kind, dur: bound, phase: phase, scene: scene, name: kind.name, unreturned: true, running: running,
            reports: &reports)
    }

    /// Reads a `handler.return` of the callback `name`: checks its handler budgets with the duration it brings.
    mutating func handlerReturned(
        _ event: EventRecord, name: String, of block: borrowing EventBlock,
        reports: inout [Report]
    ) {
        guard let kind = EventKind(name: name) else { return }
        checkHandlers(
            of: kind, dur: event.dur, phase: event.phase, scene: block.string(event.scene), name: name,
            unreturned: false, reports: &reports)
    }

    /// Checks a handler of the callback `kind` that took `dur` (at least `dur`, if `unreturned`) against the
    /// handler budgets of every model that reads `kind`.
    private mutating func checkHandlers(
        of kind: EventKind, dur: Int64, phase: ScenePhase?, scene: String?, name: String,
        unreturned: Bool, running: Bool = false, reports: inout [Report]
    ) {
        let tag = Int(kind.rawValue)
        let models = self.models
        let range = tagRanges[kind.rawValue]
        for position in Int(truncatingIfNeeded: range & 0xFFFF_FFFF)..<Int(truncatingIfNeeded: range >> 32) {
            let m = tagModels[position]
            guard m >= 0 else { continue }
            models[m].checkHandler(
                tag: tag, dur: dur, phase: phase, scene: scene, name: name, unreturned: unreturned,
                running: running, shared: &shared, reports: &reports)
        }
    }

    /// Closes every instance's accounting at `t` (the end of the trace).
    mutating func finish(at t: Int64) {
        let models = self.models
        for m in models.indices { models[m].finish(at: t, shared: &shared) }
    }

    /// How many scenes are in each accounting class of state, in the models keyed by scene that read events of
    /// `kind` (for SwiftUI's App-level phase: the scenes' phases); a scene in a state counted as nothing (one
    /// known only from a snapshot, say) is of unknown phase. No allocation.
    func sceneCensus(readingEventsOf kind: EventKind) -> SceneCensus {
        var census = SceneCensus()
        for model in models where model.keyedByScene && model.touches.contains(Int(kind.rawValue)) {
            for instance in model.instances { census.add(model.accounting[instance.state]) }
        }
        return census
    }

    /// Whether a model keyed by scene reads events of `kind`.
    func hasSceneModel(readingEventsOf kind: EventKind) -> Bool {
        models.contains { $0.keyedByScene && $0.touches.contains(Int(kind.rawValue)) }
    }

    /// Time in each state per instance of the UI models, by instance key (`app` for a keyless model), in the
    /// order the instances first appeared: the first `kept` of them, the others summed as `(other scenes)`.
    func instanceTimes(kept: Int) -> [(key: String, times: StateTimes)] {
        var order: [String] = []
        var totals: [String: StateTimes] = [:]
        var others = shared.retiredOthers
        let current = models.filter(\.isUI).flatMap { model in model.instances.map { ($0.key, $0.times) } }
        for (key, times) in shared.retired + current {
            let name = key.isEmpty ? "app" : key
            if totals[name] == nil {
                guard order.count < kept else {
                    others.add(times)
                    continue
                }
                order.append(name)
            }
            totals[name, default: StateTimes()].add(times)
        }
        var result = order.map { ($0, totals[$0]!) }
        if others != StateTimes() { result.append(("(other scenes)", others)) }
        return result
    }
}
