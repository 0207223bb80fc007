// One file for the per-event loop: every step an event goes through is read here, in order, so that the hot
// path stays one function the compiler can inline; the parts with state of their own live in Engine/.

public import LifetraceCore
public import LifetraceFormat

/// The one-pass streaming analyzer: feed it a trace's events in order, then ask for the result.
///
/// Memory is constant in the number of events: state per scene, task and process, a few events of context,
/// and the findings themselves.
///
/// ```swift
/// let result = try TraceAnalyzer.analyze(path: "run.lifetrace", codec: .zstd)
/// for finding in result.findings { print(finding.rule.id, finding.message) }
/// ```
public final class TraceAnalyzer {
    private var core: AnalysisCore
    /// The block single events are fed through.
    private var single = EventBlock()

    /// Per-process details and suspension intervals kept for the report; beyond that only totals, so memory
    /// stays constant however long the trace.
    public static let keptDetails = 1000

    /// Findings kept of each rule; the rest are counted (``AnalysisResult/omittedFindings``).
    public static let keptFindingsPerRule = 100

    /// The longest string a finding keeps (scene names, labels, messages): longer ones are cut, marked `…`.
    public static let keptStringLength = 256

    /// How long an idle background process must show no sign of life to be taken as suspended, without
    /// heartbeats: iOS suspends an app seconds after `didEnterBackground` returns (Apple, “Extending your app’s background execution time”).
    public static let suspensionThreshold: Int64 = 10_000_000_000

    /// Starts an analysis of the trace `file` with `header`.
    ///
    /// - Parameter recordTimeline: also build the ``Timeline`` the reports draw (bounded in memory).
    public init(file: String, header: TraceHeader?, configuration: AnalysisConfiguration = .defaults,
                models: [LifecycleModel] = LifecycleModel.builtIn, recordTimeline: Bool = false) {
        core = AnalysisCore(file: file, header: header, configuration: configuration, models: models,
                            observer: recordTimeline ? TimelineRecorder(configuration: configuration) : nil)
    }

    /// Starts an analysis of the trace `file` with `header` that tells `observer` what it reads and computes,
    /// as it goes (``TimelineObserver``).
    package init(file: String, header: TraceHeader?, configuration: AnalysisConfiguration = .defaults,
                 models: [LifecycleModel] = LifecycleModel.builtIn, observer: any TimelineObserver) {
        core = AnalysisCore(file: file, header: header, configuration: configuration, models: models, observer: observer)
    }

    /// Starts an analysis with models compiled before for the same scene manifest and configuration (many small
    /// traces: compiling is most of the cost of one).
    init(file: String, header: TraceHeader?, models: [LifecycleModel], compiled: ModelEngine.Blueprint) {
        core = AnalysisCore(file: file, header: header, configuration: compiled.configuration, models: models,
                            observer: nil, compiled: compiled)
    }

    /// Reads and analyzes the trace at `path`.
    ///
    /// - Parameter codec: how data frames are decompressed: ``FrameCodec/stored`` (the default) reads what a
    ///   recorder writes, in Swift alone; a trace whose frames libzstd compressed then fails with an error
    ///   naming the frame. The command line passes `.zstd` (`LifetraceZstd`), which reads both.
    public static func analyze(path: String, codec: FrameCodec = .stored, configuration: AnalysisConfiguration = .defaults,
                               models: [LifecycleModel] = LifecycleModel.builtIn,
                               recordTimeline: Bool = false) throws(TraceError) -> AnalysisResult {
        try analyze(try TraceReader(path: path, codec: codec), file: path, configuration: configuration, models: models,
                    recordTimeline: recordTimeline)
    }

    /// Analyzes what `reader` reads, the trace named `file` in findings; `observer`, if given, is told as it goes.
    package static func analyze(_ reader: TraceReader, file: String, configuration: AnalysisConfiguration = .defaults,
                               models: [LifecycleModel] = LifecycleModel.builtIn,
                               recordTimeline: Bool = false, observer: (any TimelineObserver)? = nil) throws(TraceError) -> AnalysisResult {
        let analyzer = observer.map {
            TraceAnalyzer(file: file, header: reader.header, configuration: configuration, models: models, observer: $0)
        } ?? TraceAnalyzer(file: file, header: reader.header, configuration: configuration, models: models,
                           recordTimeline: recordTimeline)
        do {
            try reader.forEachBlock { analyzer.consume($0) }
        } catch {
            // The body cannot fail: what the reading throws is the reader's own error.
            throw error as! TraceError
        }
        var result = analyzer.finish()
        result.inputWarnings = reader.warnings
        return result
    }

    /// Feeds the next event.
    public func consume(_ event: borrowing LifecycleEvent) {
        single.removeAll()
        single.append(event)
        core.consume(single)
    }

    /// Feeds the next events, a block at a time: the fast way, with no event materialised unless a finding
    /// or the timeline needs it.
    package func consume(_ block: borrowing EventBlock) {
        core.consume(block)
    }

    /// Ends the analysis: closes open processes and returns everything found.
    public func finish() -> AnalysisResult {
        core.finish()
    }

    /// Starts keeping a log of background tasks as they end (or are closed open), for ``takeTaskLog()``.
    func logTasks() {
        core.logTasks()
    }

    /// The tasks that ended since the last call, oldest first; empty unless ``logTasks()`` was called.
    func takeTaskLog() -> [TaskTracker.Life] {
        core.takeTaskLog()
    }

    /// Starts keeping a log of the services of a service process as the process ends, for ``takeServiceLog()``.
    func logServices() {
        core.logServices()
    }

    /// The services of the processes that ended since the last call, in order; empty unless ``logServices()``
    /// was called and the trace follows the service lifecycle.
    func takeServiceLog() -> [ServiceLife] {
        core.takeServiceLog()
    }
}

/// The analyzer's state and logic, a value mutated in place: one exclusive access per event, not one per field.
struct AnalysisCore: ~Copyable {
    private let file: String
    private let header: TraceHeader?
    private let configuration: AnalysisConfiguration
    private var engine: ModelEngine
    private var tasks = TaskTracker()
    private var collector: FindingCollector
    /// The index of the event being read, in the trace.
    private var index = 0
    private var first: Int64?
    private var last: Int64 = 0
    private var longest: [HandlerDuration] = []
    /// What a handler must exceed to be among the five longest so far (-1 until there are five).
    private var longestFloor: Int64 = -1

    // Processes and suspension.
    private var processes: [ProcessSummary] = []
    private var processCount = 0
    /// Processes by how they ended, in the order of ``endOrder``.
    private var endCounts = [Int](repeating: 0, count: ProcessEnd.allCases.count)
    /// ``ProcessEnd/allCases``, made once.
    private static let endOrder = ProcessEnd.allCases
    private var totals = StateTimes()
    private var suspension: SuspensionTracker
    private static let keptDetails = TraceAnalyzer.keptDetails
    /// Findings reported for the current event, turned into ``Finding``s with their context after it.
    private var reports: [ModelEngine.Report] = []
    /// The string index of `save` in the current block (a label `custom.save` events carry); below
    /// ``EventRecord/absent`` when the block has none.
    private var saveLabel = EventRecord.absent - 1
    /// Budgets read per event, looked up once.
    private let didEnterBackgroundBudget: Int64?
    private let launchBudget: Int64?
    private let taskLimits: TaskTracker.Limits
    /// Whether an app-delegate UI callback is a finding (LT020): a UIKit app with a scene manifest, and the
    /// events are callbacks rather than the notifications UIKit posts either way.
    private let appDelegateUICallbacksForbidden: Bool
    /// Whether `applicationWillTerminate` in the foreground is a finding (LT012): UIKit's alone, where the
    /// system terminates an app from the background. (An AppKit app quits while active.)
    private let terminateInForegroundChecked: Bool
    /// Whether SwiftUI's App-level phase is checked against its scenes' (LT030): a model follows the scenes'
    /// phases for the trace's lifecycle.
    private let appPhaseChecked: Bool
    /// The service rules checked in code (``ServiceRules``), for a trace that follows the service lifecycle.
    private var services: ServiceRules?
    /// The layer of each kind, by tag: read per event, so a table rather than a switch.
    private let layers: [EventLayer] = (0..<256).map { EventKind(rawValue: UInt8($0))?.layer ?? .custom }
    /// The process being read; meaningful while `alive`.
    private var process = ProcessState(launchT: 0, lastT: 0, uiSince: 0)
    private var alive = false
    /// Whether the suspensions are the simulator's ground truth (``SuspensionTracker/Evidence/groundTruth``).
    private let groundTruth: Bool

    /// What the analyzer knows of the running process.
    private struct ProcessState {
        var launchT: Int64
        var reason: String?
        var lastT: Int64
        var times = StateTimes()
        var ui: LifecycleModel.Accounting = .none
        /// Where the UI is before any UI callback: ``LifecycleModel/Accounting/none`` (counted as background)
        /// unless the launch says (`ui_state`).
        var launchUI: LifecycleModel.Accounting = .none
        var uiSince: Int64
        var terminated = false
        var willTerminateEnd: Int64?
        var handlerOverrun = false
        /// The overrun is that of a handler written unfinished that never returned (``unfinished``).
        var overrunUnreturned = false
        /// What the reason of its `process.exit` says ended it, if the trace holds one that says.
        var exitCause: ExitClassifier.ExitCause?
        /// Callbacks written while their handlers ran (`attrs.unfinished`) whose `handler.return` has not come,
        /// oldest first: at the process's end, each one's time to the process's last event is a lower bound of
        /// its duration. At most ``AnalysisCore/unfinishedKept``.
        var unfinished: [UnfinishedHandler] = []
        var firstActive: Int64?
        /// The app entered the background and has not marked a save (`custom.save`) since.
        var backgroundSaveMissing = false
        var reportedAfterTerminate = false
        /// Whether the time to the first activation measures the launch: not when the recording began after
        /// the launch (a snapshot, `app.state` or `scene.state`, says where the app was then), nor when the UI
        /// is active from the process's start (an app extension, presented by its host).
        var launchMeasured = true
    }

    /// A callback written while its handler ran (`attrs.unfinished`), waiting for its `handler.return`.
    private struct UnfinishedHandler {
        var kind: EventKind
        var phase: ScenePhase?
        var scene: String?
        var t: Int64
        /// The last time the trace proves the handler still running once events were lost
        /// (`recorder.dropped`): its `handler.return` may be among them, so later events prove nothing. `nil`:
        /// the process's last event.
        var provenUntil: Int64?
    }

    /// The most handlers written unfinished kept waiting for their return per process (memory stays bounded).
    private static let unfinishedKept = 64

    /// The kinds with a handler budget in the models that apply, by tag: a callback of one written unfinished
    /// is kept until its `handler.return` (``ProcessState/unfinished``).
    private let unfinishedKinds: [Bool]

    /// Whether the application's notifications are checked against its scenes (LT021): a UIKit app with a
    /// scene manifest captured from notifications, where UIKit posts them as the aggregate of its scenes'
    /// states (`UIApplication.applicationState`: "the value of the most active scene").
    private let appNotificationsAggregate: Bool

    /// Who is told what the analysis reads and computes, if anyone (``TimelineObserver``).
    private let observer: (any TimelineObserver)?
    /// The observer when it is the reports' timeline, for the result.
    private let timelineRecorder: TimelineRecorder?
    /// The current event started a process: the observer hears of it before the event.
    private var processStartPending = false
    /// Whether the trace was derived from a log capture (`lifetrace import`), which starts and stops
    /// wherever the capture did.
    private var derived = false

    init(file: String, header: TraceHeader?, configuration: AnalysisConfiguration, models: [LifecycleModel],
         observer: (any TimelineObserver)?, compiled: ModelEngine.Blueprint? = nil) {
        self.file = file
        self.observer = observer
        timelineRecorder = observer as? TimelineRecorder
        self.header = header
        var configuration = configuration
        derived = header?.isDerived == true
        if derived {
            // Events derived from a log: the app's launch callbacks are not in it, so nothing can be
            // ordered against them (oslog-mapping.md).
            configuration.disabledRules.insert(.uiBeforeLaunch)
        }
        self.configuration = configuration
        self.engine = compiled.map(ModelEngine.init) ?? ModelEngine(models: models, header: header, configuration: configuration)
        if observer != nil { engine.segmentLog = [] }
        collector = FindingCollector(file: file, configuration: configuration, models: models)
        suspension = SuspensionTracker(header: header)
        groundTruth = suspension.evidence == .groundTruth
        didEnterBackgroundBudget = configuration.budget(.didEnterBackground)
        launchBudget = configuration.budget(.launch)
        taskLimits = TaskTracker.Limits(backgroundTask: configuration.budget(.backgroundTask),
                                        refreshTask: configuration.budget(.refreshTask),
                                        expirationGrace: configuration.budget(.expirationGrace))
        // UIKit posts the UIApplication notifications in a scene-based app too: captured from them, an
        // app-level event says nothing of the app delegate's methods (LT020 judges those). Other lifecycles
        // have no scene manifest: their app-level events are the only ones.
        let uikit = header.followedLifecycle == .uikit
        appDelegateUICallbacksForbidden = uikit && header?.sceneManifest == true && header?.captureMethod != .notifications
        appNotificationsAggregate = uikit && header?.sceneManifest == true && header?.captureMethod == .notifications
        terminateInForegroundChecked = uikit
        appPhaseChecked = engine.hasSceneModel(readingEventsOf: .swiftuiScenePhase)
        if header.followedLifecycle == .service { services = ServiceRules(configuration: configuration) }
        var unfinished = [Bool](repeating: false, count: 256)
        for tag in 0..<256 where engine.hasHandlerBudget(tag) { unfinished[tag] = true }
        unfinishedKinds = unfinished
    }

    mutating func consume(_ block: borrowing EventBlock) {
        guard block.count > 0 else { return }
        engine.beginBlock(block)
        saveLabel = block.strings.firstIndex { $0.utf8.count == 4 && $0 == "save" }.map(Int32.init) ?? EventRecord.absent - 1
        let blockStart = index
        if first == nil { first = block.records[0].t }
        last = block.records[block.count - 1].t
        for row in 0..<block.count {
            consume(block.records[row], row: row, of: block)
            if !reports.isEmpty { flushReports(copy block, row: row, blockStart: blockStart) }
            index += 1
        }
        collector.carry(block, blockStart: blockStart)
    }

    /// Reads one event: `event` is `block.records[row]`.
    @inline(__always)
    private mutating func consume(_ event: EventRecord, row: Int, of block: borrowing EventBlock) {
        if event.kind == .processLaunch || !alive { startProcess(event, block) }
        // Each step is skipped, by a check of its own first condition, for the events it cannot concern.
        if alive {
            let transition = suspension.read(event)
            if case .none = transition {} else { suspensionChanged(transition, at: event.t) }
        }
        engine.consume(event, row: row, of: block, index: index, previousT: process.lastT, reports: &reports)
        services?.consume(event, row: row, of: block, reports: &reports)
        if observer != nil { observe(block.event(at: row)) }
        let tag = Int(event.tag)
        // (An event with attributes may be a callback written unfinished.)
        if namedRuleKinds[tag] || event.fields.contains(.attrs) || process.willTerminateEnd != nil
            || (groundTruth && suspension.suspendedSince != nil) {
            namedRules(event, row: row, of: block)
        }
        let layer = layers[tag]
        if layer == .task {
            tasks.consume(event, of: block, index: index, inBackground: Self.isBackground(process.ui), limits: taskLimits,
                          reports: &reports)
        }
        trackProcess(event, row: row, of: block)
        // Past the first handlers, rarely longer than the floor: that test first (`dur` is 0 when absent).
        if event.dur > longestFloor, event.fields.contains(.dur), layer != .process { noteHandler(event, row: row, of: block) }
    }

    /// The processes by how they ended, leaving out the ends no process had.
    private var endCountsByKind: [ProcessEnd: Int] {
        Dictionary(uniqueKeysWithValues: zip(Self.endOrder, endCounts).filter { $0.1 > 0 })
    }

    mutating func logTasks() {
        tasks.log = []
    }

    mutating func takeTaskLog() -> [TaskTracker.Life] {
        guard let log = tasks.log, !log.isEmpty else { return [] }
        tasks.log = []
        return log
    }

    mutating func logServices() {
        services?.log = []
    }

    mutating func takeServiceLog() -> [ServiceLife] {
        guard let log = services?.log, !log.isEmpty else { return [] }
        services?.log = []
        return log
    }

    mutating func finish() -> AnalysisResult {
        engine.finish(at: last)
        if alive { endProcess(at: last) }
        if !reports.isEmpty { flushReports(nil, row: 0, blockStart: index) }
        drainSegments()
        var totals = totals
        totals.suspended -= suspension.silentExits.notRunning
        var result = AnalysisResult(
            file: file, header: header, eventCount: index, span: first.map { TimeSpan(first: $0, last: last) },
            findings: collector.findings, processes: processes, processCount: processCount, endCounts: endCountsByKind, totals: totals,
            scenes: engine.instanceTimes(kept: Self.keptDetails).map { SceneTimes(scene: $0.key, times: $0.times) },
            suspensions: suspension.intervals, suspensionCount: suspension.count, suspensionFromGroundTruth: suspension.fromEvidence,
            silentExits: suspension.silentExits, longestHandlers: longest,
            timeline: timelineRecorder?.finish(start: first ?? 0, end: last))
        result.omittedFindings = collector.omitted
        return result
    }

    // MARK: - Findings

    /// Turns the reports of the current event (or of the end of the trace) into findings.
    private mutating func flushReports(_ block: EventBlock?, row: Int, blockStart: Int) {
        collector.collect(reports, index: index, t: block.map { $0.records[row].t } ?? last, block: block, row: row,
                          blockStart: blockStart, observer: observer)
        reports.removeAll(keepingCapacity: true)
    }

    /// Reports a finding on the current event.
    private mutating func report(_ ruleID: RuleID, _ message: String, scene: String?, measured: Int64? = nil, budget: Int64? = nil) {
        reports.append(ModelEngine.Report(rule: ruleID, message: message, scene: scene, measured: measured, budget: budget))
    }

    /// Keeps the five longest handlers; called for a handler longer than ``longestFloor``.
    private mutating func noteHandler(_ event: EventRecord, row: Int, of block: borrowing EventBlock) {
        // A `handler.return` stands for the callback it names.
        let name = event.kind == .handlerReturn ? block.extras(of: event).flatMap { block.string($0.name) } : nil
        longest.append(HandlerDuration(name: name ?? block.eventName(at: row), scene: block.string(event.scene),
                                       dur: event.dur, index: index))
        longest.sort { $0.dur > $1.dur }
        if longest.count > 5 { longest.removeLast() }
        if longest.count == 5 { longestFloor = longest[4].dur }
    }

    // MARK: - Rules written in code

    /// The kinds ``namedRules(_:row:of:)`` reads: those the catalogue's rules checked on events declare
    /// (``Rule/Check/events(_:)``), `handler.return`, which brings a handler's duration to the models'
    /// budgets, and the snapshots (`app.state`, `scene.state`), which say the recording began after the
    /// launch, and `recorder.dropped`, which may have lost a `handler.return`. An instance constant: a static one
    /// would cost a once-check per event.
    private let namedRuleKinds: [Bool] = {
        var kinds = [Bool](repeating: false, count: 256)
        for kind in [EventKind.handlerReturn, .appState, .sceneState, .recorderDropped] { kinds[Int(kind.rawValue)] = true }
        for rule in RuleCatalog.all {
            guard case let .events(triggers) = rule.check else { continue }
            for kind in triggers { kinds[Int(kind.rawValue)] = true }
        }
        return kinds
    }()

    /// What may follow `applicationWillTerminate`: the system's and the recorder's own events.
    private static let allowedAfterTerminate: Set<EventKind> = [
        .processExit, .processLaunch, .processSuspend, .processResume, .heartbeat, .recorderDropped, .handlerReturn,
    ]

    /// What the process model judges after `applicationWillTerminate` itself (LT013): a second one, and a
    /// snapshot, which cannot follow it in a process whose recording began before.
    private static let judgedAfterTerminateByModel: Set<EventKind> = [.appWillTerminate, .appState, .sceneState]

    private mutating func namedRules(_ event: EventRecord, row: Int, of block: borrowing EventBlock) {
        // A callback of a kind with a handler budget written while its handler ran (attributes, no `dur`): kept
        // until its return.
        if event.fields.contains(.attrs), !event.fields.contains(.dur), unfinishedKinds[Int(event.tag)] {
            noteUnfinished(event, of: block)
        }
        switch event.kind {
        case .handlerReturn:
            handlerReturned(event, of: block)
        case .appState, .sceneState:
            process.launchMeasured = false
        case .recorderDropped where !process.unfinished.isEmpty:
            eventsLost(event)
        case .appWillEnterForeground, .appDidBecomeActive, .appWillResignActive, .appDidEnterBackground:
            if appDelegateUICallbacksForbidden {
                report(.appDelegateUIWithManifest, "\(block.eventName(at: row)) fired although the app has a scene manifest: UIKit never calls it there",
                       scene: nil)
            } else if appNotificationsAggregate {
                checkAgainstScenes(event, row: row, of: block)
            }
        case .appWillTerminate:
            let ui = engine.uiState
            if terminateInForegroundChecked, ui == .active || ui == .inactive {
                report(.terminateFromForeground, "applicationWillTerminate while a scene is in the foreground (\(ui.rawValue))", scene: nil)
            }
            process.willTerminateEnd = event.end
        case .swiftuiScenePhase where !event.hasScene && appPhaseChecked:
            // A scene whose phase is not known (`none`: only a snapshot has said where it was) supports any.
            let scenes = engine.sceneAccountings(readingEventsOf: .swiftuiScenePhase)
            if event.phase == .background, let other = scenes.first(where: { $0 != .background && $0 != .none }) {
                report(.appPhaseAgainstScenes, "the App-level phase became background while a scene is \(other.rawValue)", scene: nil)
            } else if event.phase == .active, !scenes.contains(.active), !scenes.contains(.none) {
                report(.appPhaseAgainstScenes, "the App-level phase became active while no scene is active", scene: nil)
            }
        case .custom where block.extras(of: event)?.label == saveLabel:
            if let end = process.willTerminateEnd, event.t <= end, process.backgroundSaveMissing {
                report(.saveOnlyInTerminate, "state saved in applicationWillTerminate, after entering the background without saving",
                       scene: nil)
            }
            process.backgroundSaveMissing = false
        default:
            break
        }
        if let end = process.willTerminateEnd, event.t > end, !Self.judgedAfterTerminateByModel.contains(event.kind),
            !Self.allowedAfterTerminate.contains(event.kind), !process.reportedAfterTerminate {
            process.reportedAfterTerminate = true
            report(.eventAfterTerminate, "\(block.eventName(at: row)) after applicationWillTerminate returned", scene: block.string(event.scene))
        }
        if groundTruth, suspension.suspendedSince != nil, layers[Int(event.tag)] != .process {
            report(.workWhileSuspended, "\(block.eventName(at: row)) while the process is suspended", scene: block.string(event.scene))
        }
    }

    // MARK: - Observer

    /// Tells the observer of the current event: the process it started, the stretches it closed, the event.
    private mutating func observe(_ event: borrowing LifecycleEvent) {
        drainSegments()
        if processStartPending {
            processStartPending = false
            observer?.processStarted(event, index: index)
        }
        observer?.event(event, index: index)
    }

    /// Hands the engine's closed scene segments to the observer.
    private mutating func drainSegments() {
        guard var log = engine.segmentLog, !log.isEmpty else { return }
        engine.segmentLog = []
        for entry in log {
            observer?.segment(scene: entry.key, state: entry.state.rawValue, from: entry.start, to: entry.end, inferred: false)
        }
        log.removeAll()
    }

    // MARK: - Processes, suspension and exits

    private mutating func startProcess(_ event: EventRecord, _ block: borrowing EventBlock) {
        if alive { endProcess(at: event.t, nextLaunch: true) }
        suspension.processStarted(at: event.t, isLaunch: event.kind == .processLaunch)
        let reason = event.kind == .processLaunch ? block.extras(of: event).flatMap { block.string($0.reason) } : nil
        process = ProcessState(launchT: event.t, reason: reason, lastT: event.t, uiSince: event.t)
        if event.kind == .processLaunch, event.fields.contains(.attrs) {
            process.launchUI = Self.launchUI(of: event, in: block)
            process.ui = process.launchUI
        }
        alive = true
        processStartPending = true
    }

    /// Accounts the time since the last UI change to the state the UI was in (nothing while suspended).
    @inline(__always)
    private mutating func accountUI(until t: Int64) {
        accountUI(until: t, running: suspension.suspendedSince == nil)
    }

    /// Accounts the time since the last UI change to the state the UI was in, if the process was `running`.
    @inline(__always)
    private mutating func accountUI(until t: Int64, running: Bool) {
        let elapsed = max(0, t - process.uiSince)
        if running, observer != nil {
            let state = process.ui == .active ? "active" : process.ui == .inactive ? "inactive" : "background"
            observer?.segment(scene: nil, state: state, from: process.uiSince, to: t, inferred: false)
        }
        if running {
            // With no UI attached, a running process counts as in the background.
            process.times.add(elapsed, as: process.ui == .none ? .background : process.ui)
        }
        process.uiSince = t
    }

    /// Accounts what an event changed of suspension: the time up to a suspension to the UI's state, and a
    /// suspension's time, until this event, to suspended.
    @inline(never)
    private mutating func suspensionChanged(_ transition: SuspensionTracker.Transition, at t: Int64) {
        engine.suspensionChanged(at: index)
        switch transition {
        case .none:
            return
        case .suspended:
            // Running until now: the tracker already counts the process suspended.
            accountUI(until: t, running: true)
            // Suspended, a process runs nothing: its tasks end here.
            if groundTruth { tasks.close(reports: &reports) }
            return
        case let .inferred(interval):
            accountUI(until: interval.start)
            accountSuspension(interval, inferred: true)
        case let .resumed(interval):
            accountSuspension(interval, inferred: false)
        }
        process.uiSince = t
    }

    /// Accounts a suspension the tracker kept to the process's times and the timeline.
    private mutating func accountSuspension(_ interval: SuspensionInterval, inferred: Bool) {
        observer?.segment(scene: nil, state: "suspended", from: interval.start, to: interval.end, inferred: inferred)
        process.times.suspended += interval.end - interval.start
    }

    private mutating func trackProcess(_ event: EventRecord, row: Int, of block: borrowing EventBlock) {
        guard alive else { return }
        process.lastT = event.t
        let ui = engine.uiState
        // Before any UI event the UI is where the launch said (``ProcessState/launchUI``): no change.
        if ui != process.ui, ui != .none || process.ui != process.launchUI { uiChanged(to: ui, event, of: block) }
        // Tests that nearly always fail first, so that the kind is looked at only where it matters (`dur` is
        // 0 when absent).
        if let budget = didEnterBackgroundBudget, event.dur > budget,
            event.kind == .sceneDidEnterBackground || event.kind == .appDidEnterBackground {
            process.handlerOverrun = true
        }
        if event.kind == .appWillTerminate { process.terminated = true }
        if event.kind == .processExit {
            processEndObserved = true
            process.exitCause = block.extras(of: event).flatMap { block.string($0.reason) }
                .flatMap(ExitClassifier.cause(ofExitReason:))
            endProcess(at: event.t)
            return
        }
        // Signs of life in an idle background: the process runs until at least the end of this event. (The
        // mark was cleared when the event was read.)
        if !groundTruth, suspension.suspendedSince == nil, !tasks.hasOpenTasks {
            // (A `handler.return`'s `dur` is before its `t`.)
            let end = event.kind == .handlerReturn ? event.t : event.t &+ event.dur
            suspension.noteSignOfLife(until: end, idleInBackground: Self.isBackground(ui))
        }
    }

    /// Where a launch says the UI starts (`ui_state`), ``LifecycleModel/Accounting/none`` if it does not.
    @inline(never)
    private static func launchUI(of event: EventRecord, in block: borrowing EventBlock) -> LifecycleModel.Accounting {
        guard case .string(let state)? = block.attribute(Attribute.Key.uiState, of: event) else { return .none }
        return state == "inactive" ? .inactive : state == "background" ? .background : .none
    }

    /// A handler that returned after its event was written: its budgets, with the duration it brings.
    @inline(never)
    private mutating func handlerReturned(_ event: EventRecord, of block: borrowing EventBlock) {
        guard let name = block.extras(of: event).flatMap({ block.string($0.name) }) else { return }
        if !process.unfinished.isEmpty, let kind = EventKind(name: name) {
            let scene = block.string(event.scene)
            if let waiting = process.unfinished.lastIndex(where: { $0.kind == kind && $0.scene == scene }) {
                process.unfinished.remove(at: waiting)
            }
        }
        engine.handlerReturned(event, name: name, of: block, reports: &reports)
        if let budget = didEnterBackgroundBudget, event.dur > budget,
            name == EventKind.sceneDidEnterBackground.name || name == EventKind.appDidEnterBackground.name {
            process.handlerOverrun = true
        }
    }

    /// Whether a process whose UI is in `ui` runs in the background: its UI is there, or it has none. (Chosen
    /// without a branch: `none` and `background` are the indexes 0 and 3.)
    @inline(__always)
    private static func isBackground(_ ui: LifecycleModel.Accounting) -> Bool {
        (ui.index &+ 1) & 2 == 0
    }

    /// The UI changed state with `event`: accounts the time of the state it leaves.
    private mutating func uiChanged(to ui: LifecycleModel.Accounting, _ event: EventRecord, of block: borrowing EventBlock) {
        // An instance that left a state at once was where it went from its start (a scene connected for the
        // foreground): the process too.
        if engine.recounted(at: index) {
            recount(event, of: block)
            if ui == process.ui { return }
        }
        // A recording begun after the launch knew nothing of the UI before its snapshot: that time counts as
        // nothing (rather than as background, as a launch's time before its first UI callback does).
        if process.ui == .none, event.kind == .appState || event.kind == .sceneState { process.uiSince = event.t }
        accountUI(until: event.t)
        enterUI(ui, at: event.t, event, of: block)
    }

    /// The UI is in `ui` from `t` (the time of `event`, or earlier when `event` showed where the UI had been
    /// since): the launch's first activation, the mark of a save due, the tasks' budgets. The time before `t`
    /// is accounted.
    @inline(__always)
    private mutating func enterUI(_ ui: LifecycleModel.Accounting, at t: Int64, _ event: EventRecord, of block: borrowing EventBlock) {
        // Active from the process's start (an extension's host presents it): no launch to measure.
        if ui == .active, event.kind == .processLaunch { process.launchMeasured = false }
        if ui == .active, process.firstActive == nil, process.launchMeasured {
            process.firstActive = t
            let launch = t - process.launchT
            if process.reason == nil || process.reason == "user", let budget = launchBudget, launch > budget {
                report(.slowLaunch, "the first scene became active \(Nanoseconds.short(launch)) after launch, over the \(Nanoseconds.short(budget)) budget",
                       scene: block.string(event.scene), measured: launch, budget: budget)
            }
        }
        if process.ui == .active || process.ui == .inactive, ui == .background { process.backgroundSaveMissing = true }
        if Self.isBackground(ui) != Self.isBackground(process.ui) {
            tasks.uiMoved(toBackground: Self.isBackground(ui), at: t)
        }
        process.ui = ui
    }

    /// A UI instance left a state at once with the current event, and its time there since it entered counted
    /// otherwise (UIKit's scene connected for the foreground, ``LifecycleModel/LeftAtOnce``): so does the
    /// process's, where that is further in the foreground than where the process was counted.
    @inline(never)
    private mutating func recount(_ event: EventRecord, of block: borrowing EventBlock) {
        let (start, ui) = engine.recounted
        guard ui.foregroundRank > process.ui.foregroundRank, process.uiSince <= start else { return }
        if start > process.uiSince { accountUI(until: start) }
        enterUI(ui, at: start, event, of: block)
    }

    // MARK: - Handlers written unfinished

    /// A callback of a kind with a handler budget carried extras, no `dur`: kept if its attributes say `unfinished`.
    @inline(never)
    private mutating func noteUnfinished(_ event: EventRecord, of block: borrowing EventBlock) {
        guard case .bool(true)? = block.attribute(Attribute.Key.unfinished, of: event),
            process.unfinished.count < Self.unfinishedKept
        else { return }
        process.unfinished.append(UnfinishedHandler(kind: event.kind, phase: event.phase, scene: block.string(event.scene),
                                                    t: event.t))
    }

    /// Events were lost (`recorder.dropped`: in the `dur` before `t`): a `handler.return` may have been among
    /// them, so the handlers still waiting are proven running only until the loss began.
    private mutating func eventsLost(_ event: EventRecord) {
        let lossStart = event.t - event.dur
        for index in process.unfinished.indices where process.unfinished[index].provenUntil == nil {
            process.unfinished[index].provenUntil = max(process.unfinished[index].t, min(process.lastT, lossStart))
        }
    }

    /// The process ends with handlers written unfinished that never returned: the time from each callback to the
    /// process's last event (while the handler had not returned) is a lower bound of its duration, judged against
    /// its budgets; a `didEnterBackground` handler over its budget means the process was killed in it.
    /// (Apple, "applicationDidEnterBackground(_:)": "If the method does not return before time runs out your app
    /// is terminated".)
    private mutating func judgeUnreturnedHandlers() {
        for handler in process.unfinished {
            let bound = (handler.provenUntil ?? process.lastT) - handler.t
            guard bound > 0 else { continue }
            engine.handlerUnreturned(handler.kind, bound: bound, phase: handler.phase, scene: handler.scene, reports: &reports)
            if let budget = didEnterBackgroundBudget, bound > budget,
                handler.kind == .sceneDidEnterBackground || handler.kind == .appDidEnterBackground {
                process.handlerOverrun = true
                process.overrunUnreturned = true
            }
        }
        process.unfinished.removeAll()
    }

    // MARK: - The application's notifications against its scenes

    /// Checks an application notification of a scene-based app against its scenes (LT021): UIKit's
    /// `applicationState` is the state of the most active scene, so the application moves only with a scene
    /// that moves the same way. A notification is judged only where no order of UIKit's posting could explain
    /// it: the application becoming active or resigning while every scene is in the background, entering the
    /// foreground or the background while a scene is active. (No scene known: nothing to judge.)
    private mutating func checkAgainstScenes(_ event: EventRecord, row: Int, of block: borrowing EventBlock) {
        let scenes = engine.uiState
        let contradicts: Bool
        switch event.kind {
        case .appDidBecomeActive, .appWillResignActive: contradicts = scenes == .background
        case .appWillEnterForeground, .appDidEnterBackground: contradicts = scenes == .active
        default: contradicts = false
        }
        guard contradicts else { return }
        let state = scenes == .active ? "a scene is active" : "every scene is in the background"
        report(.appNotificationAgainstScenes,
               "\(block.eventName(at: row)) posted while \(state): UIKit's application state is that of its most active scene",
               scene: nil)
    }

    private mutating func endProcess(at t: Int64, nextLaunch: Bool = false) {
        guard alive else { return }
        services?.processEnded(at: processEndObserved ? t : process.lastT, exitObserved: processEndObserved, reports: &reports)
        if !process.unfinished.isEmpty { judgeUnreturnedHandlers() }
        let suspendedAtEnd = suspension.suspendedAtEnd(nextLaunch: nextLaunch)
        let (end, basis) = ExitClassifier.classify(ExitClassifier.Facts(
            terminated: process.terminated, derived: derived, nextLaunch: nextLaunch, exitObserved: processEndObserved,
            openTask: tasks.hasOpenTasks, expiredTask: tasks.hasExpiredTask, handlerOverrun: process.handlerOverrun,
            overrunUnreturned: process.overrunUnreturned, exitCause: process.exitCause, suspended: suspendedAtEnd,
            ui: process.ui))
        // What a capture cut short left open is not known to leak; what a crash or jetsam ended, the app did not
        // leave open.
        if end == .traceEnded && derived || end == .crashed || end == .killedByJetsam {
            var ignored: [ModelEngine.Report] = []
            tasks.close(reports: &ignored)
        } else {
            tasks.close(reports: &reports)
        }
        // An observed exit ends the process's open tasks there; otherwise its last sign of life does.
        observer?.processEnded(at: processEndObserved ? t : process.lastT, as: end)
        // Close the accounting: a process that ends suspended was suspended until its end.
        switch suspension.processEnded(at: t, silently: end == .terminatedWhileSuspended) {
        case let .resumed(interval):
            accountSuspension(interval, inferred: false)
        case let .inferred(interval):
            accountUI(until: interval.start)
            accountSuspension(interval, inferred: true)
        case .none, .suspended:
            accountUI(until: max(process.lastT, process.uiSince))
        }
        if end == .cleanTerminate {
            suspension.processAnnouncedEnd(at: processEndObserved ? t : max(process.lastT, process.willTerminateEnd ?? process.lastT))
        }
        endCounts[Self.endOrder.firstIndex(of: end)!] += 1
        totals.add(process.times)
        processCount += 1
        if processes.count < Self.keptDetails {
            processes.append(ProcessSummary(launchT: process.launchT, launchReason: process.reason, lastT: process.lastT,
                                            firstActiveT: process.firstActive,
                                            end: end, endBasis: basis, times: process.times))
        }
        alive = false
        processEndObserved = false
    }

    private var processEndObserved = false
}
