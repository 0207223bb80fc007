// The per-event loop: every step an event goes through is read here, in order, so that the
// hot path stays one function the compiler can inline. The rare changes of a process (its start, its end, its
// UI's state) are in AnalysisCore+Processes.swift, the rules checked in code in AnalysisCore+CodeCheckedRules.swift,
// what an observer is told in AnalysisCore+Observer.swift; the parts with state of their own (processes,
// suspensions, tasks, the models, the slowest handlers) live in Engine/. Runs of quiet events (heartbeats, the
// system's notices) take a shorter path, in AnalysisCore+QuietRuns.swift, that does what this loop would do to them.

import LifetraceCore
import LifetraceFormat

/// The analyzer's state and logic, a value mutated in place: one exclusive access per event, not one per field.
struct AnalysisCore: ~Copyable {
    let file: String
    let header: TraceHeader?
    let configuration: AnalysisConfiguration
    var engine: ModelEngine
    var tasks = TaskTracker()
    var collector: FindingCollector
    /// The index of the event being read, in the trace.
    var index = 0
    var first: Int64?
    var last: Int64 = 0
    /// The five longest handlers.
    var slowest = SlowestHandlers()
    /// The running process and those that ended.
    var process = ProcessTracker()
    var suspension: SuspensionTracker
    /// Findings reported for the current event, turned into ``Finding``s with their context after it.
    var reports: [ModelEngine.Report] = []
    /// The string index of `save` in the current block (a label `custom.save` events carry); below
    /// ``EventRecord/absent`` when the block has none.
    var saveLabel = EventRecord.absent - 1
    /// Budgets read per event, looked up once.
    let didEnterBackgroundBudget: Int64?
    let launchBudget: Int64?
    let taskLimits: TaskTracker.Limits
    /// SwiftUI's App-level phase held until its scenes support it (LT030).
    var appPhase = AppPhaseCheck()
    /// The service rules checked in code (``ServiceRules``), for a trace that follows the service lifecycle.
    var services: ServiceRules?
    /// Whether ``services`` is there: a flag read per event, where the optional's case is a call.
    let checksServices: Bool
    /// The layer of each kind, by tag: read per event, so a table rather than a switch.
    let layers = KindTable(EventKind.byTag.map { $0?.layer ?? .custom })
    /// Whether the suspensions are the simulator's ground truth (``SuspensionTracker/Evidence/groundTruth``).
    let groundTruth: Bool
    /// Whether work while suspended is checked (LT070): its scope, ground-truth suspensions.
    let workWhileSuspendedChecked: Bool
    /// The kinds the rules checked in code read, and their checks, from the catalogue and the rules' scopes. An
    /// instance constant: a static one would cost a once-check per event.
    let triggers: CodeRuleTriggers
    /// By tag, whether an event of the kind is quiet (``isQuiet(_:triggers:readByModels:)``): runs of them are read
    /// apart (``skimQuietRun(_:from:)``).
    let quietKinds: KindTable<Bool>
    /// Whether runs of quiet events are read apart: not with an observer, which is told of every event, nor with
    /// the service rules, which read every event; off, each is read by the per-event loop, to the same result.
    var skimsQuietRuns = true
    /// How many runs of quiet events were read apart.
    var quietRunsRead = 0

    /// The kinds with a handler budget in the models that apply, by tag: a callback of one written unfinished
    /// is kept until its `handler.return` (``ProcessTracker/State/unfinished``).
    let unfinishedKinds: [Bool]
    /// Who is told what the analysis reads and computes, if anyone (``TimelineObserver``).
    let observer: (any TimelineObserver)?
    /// The current event started a process: the observer hears of it before the event.
    var processStartPending = false
    /// Whether the trace was derived from a log capture (`lifetrace import`), which starts and stops
    /// wherever the capture did.
    var derived = false

    init(
        file: String, header: TraceHeader?, configuration: AnalysisConfiguration, models: [LifecycleModel],
        observer: (any TimelineObserver)?, compiled: ModelEngine.Blueprint? = nil
    ) {
        self.file = file
        self.observer = observer
        self.header = header
        derived = header?.isDerived == true
        var engine =
            compiled.map(ModelEngine.init) ?? ModelEngine(models: models, header: header, configuration: configuration)
        if observer != nil { engine.segmentLog = [] }
        // The kinds the rules' scopes ask a scene's model to read, which the models read.
        let sceneModelsRead = Set(
            RuleCatalog.all.compactMap(\.scope.sceneModelsReading).filter { engine.hasSceneModel(readingEventsOf: $0) })
        let readByModels = engine.kindsRead
        self.engine = engine
        suspension = SuspensionTracker(header: header)
        let groundTruth = suspension.evidence == .groundTruth
        self.groundTruth = groundTruth
        // The rules whose scope does not admit the trace are not checked, and nothing reports them.
        let applies = { (rule: Rule) in
            rule.scope.admits(header, groundTruth: groundTruth, sceneModelsRead: sceneModelsRead.contains)
        }
        var configuration = configuration
        for rule in RuleCatalog.all where !applies(rule) { configuration.disabledRules.insert(rule.id) }
        self.configuration = configuration
        triggers = CodeRuleTriggers(rules: RuleCatalog.all, applies: applies)
        quietKinds = Self.quietKinds(triggers: triggers, readByModels: readByModels)
        workWhileSuspendedChecked = RuleCatalog.all.contains { $0.id == .workWhileSuspended && applies($0) }
        collector = FindingCollector(
            file: file, configuration: configuration, models: models, family: CallbackFamily(header: header))
        didEnterBackgroundBudget = configuration.budget(.didEnterBackground)
        launchBudget = configuration.budget(.launch)
        taskLimits = TaskTracker.Limits(
            backgroundTask: configuration.budget(.backgroundTask),
            refreshTask: configuration.budget(.refreshTask),
            expirationGrace: configuration.budget(.expirationGrace))
        checksServices = header.followedLifecycle == .service
        if checksServices {
            services = ServiceRules(configuration: configuration)
            process.countsTimeWithoutUI = false
        }
        var unfinished = [Bool](repeating: false, count: 256)
        for tag in 0..<256 where self.engine.hasHandlerBudget(tag) { unfinished[tag] = true }
        unfinishedKinds = unfinished
        // Set last: assigned earlier from `observer`, the optimizer of Swift 6.3.1 released a stack slot never written.
        if observer != nil || checksServices { skimsQuietRuns = false }
    }

    mutating func consume(_ block: borrowing EventBlock) {
        guard block.count > 0 else { return }
        observer?.blockStarted(block)
        engine.beginBlock(block)
        saveLabel = Self.saveLabel(of: block)
        let blockStart = index
        if first == nil { first = block.records[0].t }
        last = block.records[block.count - 1].t
        let count = block.count
        var row = 0
        while row < count {
            if quietKinds[block.records[row].tag], skimsQuietRuns {
                row = skimQuietRun(block, from: row)
                guard row < count else { break }
            }
            consume(block.records[row], row: row, of: block)
            if !reports.isEmpty { flushReports(copy block, row: row, blockStart: blockStart) }
            index += 1
            row += 1
        }
        collector.carry(block, blockStart: blockStart)
    }

    /// Reads one event: `event` is `block.records[row]`.
    @inline(__always)
    private mutating func consume(_ event: EventRecord, row: Int, of block: borrowing EventBlock) {
        if appPhase.isPending { settleAppPhase(at: event) }
        if event.kind == .processLaunch || !process.alive { startProcess(event, block) }
        // Each step is skipped, by a check of its own first condition, for the events it cannot concern.
        if process.alive {
            let transition = suspension.read(event)
            if case .none = transition {} else { suspensionChanged(transition, at: event.t) }
        }
        engine.consume(event, row: row, of: block, index: index, previousT: process.state.lastT, reports: &reports)
        if checksServices { services?.consume(event, row: row, of: block, reports: &reports) }
        if observer != nil { observe(row: row, of: block) }
        // (An event with attributes may be a callback written unfinished.)
        if triggers.read[event.tag] || event.fields.contains(.attrs) || process.state.willTerminateEnd != nil
            || (workWhileSuspendedChecked && suspension.suspendedSince != nil)
        {
            namedRules(event, row: row, of: block)
        }
        let layer = layers[event.tag]
        if layer == .task {
            tasks.consume(
                event, of: block, index: index, inBackground: Self.isBackground(process.state.ui), limits: taskLimits,
                reports: &reports)
        }
        // What every event of a running process changes (its last sign of life, where its UI is, its end), written
        // out here, as a call was not inlined; the rare steps are calls (AnalysisCore+Processes.swift).
        if process.alive {
            process.state.lastT = event.t
            let ui = engine.uiState
            // A model that resets at `process.exit` says where the next launch starts, not where this process ended.
            if uiLeftItsBooks(ui), event.kind != .processExit { uiChanged(to: ui, event, of: block) }
            if let budget = didEnterBackgroundBudget, event.dur > budget,
                event.kind == .sceneDidEnterBackground || event.kind == .appDidEnterBackground
            {
                process.state.handlerOverrun = true
            }
            if event.kind == .appWillTerminate { process.state.terminated = true }
            if event.kind == .processExit {
                processExited(event, of: block)
            } else if !groundTruth, suspension.suspendedSince == nil, !tasks.hasOpenTasks {
                // A sign of life: running until this event's end (a `handler.return`'s `dur` is before its `t`).
                let end = event.kind == .handlerReturn ? event.t : event.t &+ event.dur
                suspension.noteSignOfLife(until: end, idleInBackground: Self.isBackground(ui))
            }
        }
        noteIfSlowest(event, row: row, of: block, isHandler: layer != .process)
    }

    mutating func logTasks() {
        tasks.log = []
    }

    mutating func takeTaskLog() -> [TaskTracker.Life] {
        guard let log = tasks.log, !log.isEmpty else { return [] }
        tasks.log = []
        return log
    }

    mutating func finish() -> AnalysisResult {
        engine.finish(at: last)
        if appPhase.isPending { settleAppPhase(at: nil) }
        if process.alive { endProcess(at: last) }
        if !reports.isEmpty { flushReports(nil, row: 0, blockStart: index) }
        drainSegments()
        var totals = process.totals
        totals.suspended -= suspension.silentExits.notRunning
        var result = AnalysisResult(
            file: file, header: header, eventCount: index, span: first.map { TimeSpan(first: $0, last: last) },
            findings: collector.findings, processes: process.summaries, processCount: process.count,
            endCounts: process.endCountsByKind, totals: totals,
            scenes: engine.instanceTimes(kept: TraceAnalyzer.keptDetails).map {
                SceneTimes(scene: $0.key, times: $0.times)
            },
            suspensions: suspension.intervals, suspensionCount: suspension.count,
            suspensionFromGroundTruth: suspension.fromEvidence,
            silentExits: suspension.silentExits, longestHandlers: slowest.longest)
        result.omittedFindings = collector.omitted
        result.services = services?.times
        return result
    }

    // MARK: - Findings

    /// Turns the reports of the current event (or of the end of the trace) into findings. Rare: out of the loop.
    @inline(never)
    private mutating func flushReports(_ block: EventBlock?, row: Int, blockStart: Int) {
        collector.collect(
            reports, index: index, t: block.map { $0.records[row].t } ?? last, block: block, row: row,
            blockStart: blockStart, observer: observer)
        reports.removeAll(keepingCapacity: true)
    }

    /// Reports a finding on the current event.
    mutating func report(
        _ ruleID: RuleID, _ message: String, scene: String?, measured: Int64? = nil, budget: Int64? = nil
    ) {
        reports.append(
            ModelEngine.Report(rule: ruleID, message: message, scene: scene, measured: measured, budget: budget))
    }
}
