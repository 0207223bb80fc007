public import LifetraceCore
import LifetraceFormat

/// The one-pass streaming analyzer: feed it a trace's events in order, then ask for the result.
///
/// Memory is constant in the number of events: state per scene, task and process, a few events of context,
/// and the findings themselves.
///
/// ```swift
/// let result = try TraceAnalyzer.analyze(path: "run.lifetrace")
/// for finding in result.findings { print(finding.rule.id, finding.message) }
/// ```
public final class TraceAnalyzer {
    private let file: String
    private let header: TraceHeader?
    private let configuration: AnalysisConfiguration
    private var engine: ModelEngine
    private var tasks = TaskTracker()
    private var findings: [Finding] = []
    private var ordinals: [String: Int] = [:]
    private var context: [IndexedEvent] = []
    private var index = 0
    private var first: Int64?
    private var last: Int64 = 0
    private var longest: [(name: String, scene: String?, dur: Int64, index: Int)] = []

    // Processes and suspension.
    private var processes: [ProcessSummary] = []
    private var current: ProcessState?
    private var suspensions: [SuspensionInterval] = []
    private let groundTruth: Bool
    private let heartbeatInterval: Int64?

    /// What the analyzer knows of the running process.
    private struct ProcessState {
        var launchT: Int64
        var reason: String?
        var lastT: Int64
        var times = StateTimes()
        var ui: LifecycleModel.Accounting = .none
        var uiSince: Int64
        var terminated = false
        var willTerminateEnd: Int64?
        var handlerOverrun = false
        var suspendedSince: Int64?
        /// When the process last showed it was running while idle in the background.
        var idleSince: Int64?
        var firstActive: Int64?
        var backgroundSaveMissing = false
        var sawSave = false
        var reportedAfterTerminate = false
    }

    /// How long an idle background process must show no sign of life to be taken as suspended, without
    /// heartbeats: iOS suspends an app seconds after `didEnterBackground` returns (seeds/001).
    public static let suspensionThreshold: Int64 = 10_000_000_000

    /// Starts an analysis of the trace `file` with `header`.
    public init(file: String, header: TraceHeader?, configuration: AnalysisConfiguration = .defaults,
                models: [LifecycleModel] = LifecycleModel.builtIn) {
        self.file = file
        self.header = header
        self.configuration = configuration
        self.engine = ModelEngine(models: models, header: header, configuration: configuration)
        self.groundTruth = header?[extra: "ground_truth"]?.boolValue == true
        self.heartbeatInterval = header?[extra: "heartbeat_ns"]?.intValue
        context.reserveCapacity(4)
    }

    /// Reads and analyzes the trace at `path`.
    public static func analyze(path: String, configuration: AnalysisConfiguration = .defaults,
                               models: [LifecycleModel] = LifecycleModel.builtIn) throws -> AnalysisResult {
        let reader = try TraceReader(path: path)
        let analyzer = TraceAnalyzer(file: path, header: reader.header, configuration: configuration, models: models)
        try reader.forEachEvent { analyzer.consume($0) }
        return analyzer.finish()
    }

    /// Feeds the next event.
    public func consume(_ event: borrowing LifecycleEvent) {
        if first == nil { first = event.t }
        last = event.t
        remember(event)
        if event.kind == .processLaunch || current == nil { startProcess(event) }
        updateSuspension(event)
        engine.consume(event) { report in
            self.report(report.rule, report.message, scene: report.scene, measured: report.measured, budget: report.budget)
        }
        namedRules(event)
        tasks.consume(event, index: index, configuration: configuration) { rule, message, measured, budget in
            self.report(rule, message, scene: nil, measured: measured, budget: budget)
        }
        trackProcess(event)
        if let dur = event.dur, event.kind.layer != .process { noteHandler(event, dur) }
        index += 1
    }

    /// Ends the analysis: closes open processes and returns everything found.
    public func finish() -> AnalysisResult {
        engine.finish(at: last)
        if current != nil { endProcess(at: last, classification: nil) }
        return AnalysisResult(
            file: file, header: header, eventCount: index, span: first.map { ($0, last) },
            findings: findings, processes: processes, scenes: engine.instanceTimes.map { (scene: $0.key, times: $0.times) }, suspensions: suspensions,
            suspensionFromGroundTruth: groundTruth, longestHandlers: longest)
    }

    // MARK: - Findings

    private func remember(_ event: borrowing LifecycleEvent) {
        if context.count == 4 { context.removeFirst() }
        context.append(IndexedEvent(index: index, event: copy event))
    }

    private func report(_ ruleID: String, _ message: String, scene: String?, measured: Int64? = nil, budget: Int64? = nil) {
        guard let rule = RuleCatalog.rule(ruleID), !configuration.disabledRules.contains(ruleID),
            let event = context.last?.event
        else { return }
        let name = event.eventName
        let ordinalKey = ruleID + "|" + (scene ?? "") + "|" + name
        let ordinal = ordinals[ordinalKey, default: 0]
        ordinals[ordinalKey] = ordinal + 1
        findings.append(Finding(
            rule: rule, severity: configuration.severity(of: rule), file: file, eventIndex: index, t: event.t,
            eventName: name, scene: scene ?? event.scene, message: message, measured: measured, budget: budget,
            context: context, baselineKey: "\(ruleID) \(scene ?? event.scene ?? "-") \(name) #\(ordinal)"))
    }

    private func noteHandler(_ event: borrowing LifecycleEvent, _ dur: Int64) {
        guard longest.count < 5 || dur > longest[longest.count - 1].dur else { return }
        longest.append((event.eventName, event.scene, dur, index))
        longest.sort { $0.dur > $1.dur }
        if longest.count > 5 { longest.removeLast() }
    }

    // MARK: - Rules written in code

    private static let appDelegateUI: Set<EventKind> = [
        .appWillEnterForeground, .appDidBecomeActive, .appWillResignActive, .appDidEnterBackground,
    ]

    /// What may follow `applicationWillTerminate`: the system's and the recorder's own events.
    private static let allowedAfterTerminate: Set<EventKind> = [
        .processExit, .processLaunch, .processSuspend, .processResume, .heartbeat, .recorderDropped,
    ]

    private func namedRules(_ event: borrowing LifecycleEvent) {
        switch event.kind {
        case .appWillEnterForeground, .appDidBecomeActive, .appWillResignActive, .appDidEnterBackground:
            if header?.sceneManifest == true {
                report("LT020", "\(event.eventName) fired although the app has a scene manifest: UIKit never calls it there",
                       scene: nil)
            }
        case .appWillTerminate:
            let ui = engine.uiState
            if ui == .active || ui == .inactive {
                report("LT012", "applicationWillTerminate while a scene is in the foreground (\(ui.rawValue))", scene: nil)
            }
            current?.willTerminateEnd = event.t + (event.dur ?? 0)
            if let process = current, process.backgroundSaveMissing, process.sawSave == false {
                current?.backgroundSaveMissing = true
            }
        case .swiftuiScenePhase where event.scene == nil:
            let scenes = engine.states(of: "swiftui-scene").map(\.state)
            if event.phase == .background, scenes.contains(where: { $0 != "background" }) {
                report("LT030", "the App-level phase became background while a scene is \(scenes.first { $0 != "background" }!)",
                       scene: nil)
            } else if event.phase == .active, !scenes.contains("active") {
                report("LT030", "the App-level phase became active while no scene is active", scene: nil)
            }
        case .custom where event.label == "save":
            guard current != nil else { break }
            if let end = current?.willTerminateEnd, event.t <= end, current?.backgroundSaveMissing == true {
                report("LT080", "state saved in applicationWillTerminate, after entering the background without saving",
                       scene: nil)
            }
            current?.sawSave = true
            current?.backgroundSaveMissing = false
        default:
            break
        }
        if let end = current?.willTerminateEnd, event.t > end, event.kind != .appWillTerminate,
            !Self.allowedAfterTerminate.contains(event.kind), current?.reportedAfterTerminate == false {
            current?.reportedAfterTerminate = true
            report("LT013", "\(event.eventName) after applicationWillTerminate returned", scene: event.scene)
        }
        if groundTruth, current?.suspendedSince != nil, event.kind.layer != .process {
            report("LT070", "\(event.eventName) while the process is suspended", scene: event.scene)
        }
    }

    // MARK: - Processes, suspension and exits

    private func startProcess(_ event: borrowing LifecycleEvent) {
        if current != nil { endProcess(at: event.t, classification: nil, nextLaunch: true) }
        current = ProcessState(launchT: event.t, reason: event.kind == .processLaunch ? event.reason : nil,
                               lastT: event.t, uiSince: event.t)
    }

    /// Accounts the time since the last UI change to the state the UI was in.
    private func accountUI(until t: Int64) {
        guard var process = current else { return }
        let elapsed = max(0, t - process.uiSince)
        if process.suspendedSince == nil {
            switch process.ui {
            case .active: process.times.active += elapsed
            case .inactive: process.times.inactive += elapsed
            case .background, .none: process.times.background += elapsed
            }
        }
        process.uiSince = t
        current = process
    }

    private func updateSuspension(_ event: borrowing LifecycleEvent) {
        guard var process = current else { return }
        if groundTruth {
            switch event.kind {
            case .processSuspend:
                accountUI(until: event.t)
                process = current!
                tasks.close { rule, message in report(rule, message, scene: nil) }
                process.suspendedSince = event.t
            case .processResume:
                if let since = process.suspendedSince {
                    suspensions.append(SuspensionInterval(start: since, end: event.t, basis: "ground truth"))
                    process.times.suspended += event.t - since
                    process.uiSince = event.t
                }
                process.suspendedSince = nil
            default: break
            }
            current = process
            return
        }
        // Inference: an idle background process that shows no sign of life for long enough was suspended.
        guard let idle = process.idleSince, event.kind != .processLaunch else { return }
        let threshold = heartbeatInterval.map { $0 * 2 } ?? Self.suspensionThreshold
        if event.t - idle > threshold {
            let basis = heartbeatInterval != nil ? "heartbeats stopped" : "idle in the background"
            accountUI(until: idle)
            process = current!
            suspensions.append(SuspensionInterval(start: idle, end: event.t, basis: basis))
            process.times.suspended += event.t - idle
            process.uiSince = event.t
        }
        process.idleSince = nil
        current = process
    }

    private func trackProcess(_ event: borrowing LifecycleEvent) {
        guard current != nil else { return }
        current?.lastT = event.t
        let ui = engine.uiState
        if ui != current!.ui {
            accountUI(until: event.t)
            if ui == .active, current!.firstActive == nil {
                current!.firstActive = event.t
                if current!.reason == nil || current!.reason == "user", let budget = configuration.budget("launch"),
                    event.t - current!.launchT > budget {
                    report("LT053", "the first scene became active \(Nanoseconds.short(event.t - current!.launchT)) after launch, over the \(Nanoseconds.short(budget)) budget",
                           scene: event.scene, measured: event.t - current!.launchT, budget: budget)
                }
            }
            if (current!.ui == .active || current!.ui == .inactive), ui == .background {
                current!.backgroundSaveMissing = !current!.sawSave ? true : true
                current!.sawSave = false
            }
            current!.ui = ui
        }
        if event.kind == .appWillTerminate { current!.terminated = true }
        if event.kind == .processExit { endProcess(at: event.t, classification: nil) }
        // Signs of life in an idle background: the process runs until at least the end of this event.
        if current != nil, !groundTruth, (ui == .background || ui == .none), !tasks.hasOpenTasks,
            event.kind != .processExit {
            current!.idleSince = event.t + (event.dur ?? 0)
        }
        if event.kind == .sceneDidEnterBackground || event.kind == .appDidEnterBackground,
            let dur = event.dur, let budget = configuration.budget("didEnterBackground"), dur > budget {
            current?.handlerOverrun = true
        }
    }

    private func endProcess(at t: Int64, classification: ProcessEnd?, nextLaunch: Bool = false) {
        guard var process = current else { return }
        var end: ProcessEnd
        var basis: String
        let suspendedAtEnd = process.suspendedSince != nil
            || (process.idleSince.map { nextLaunch && t - $0 > Self.suspensionThreshold } ?? false)
        if process.terminated {
            (end, basis) = (.cleanTerminate, "applicationWillTerminate ran")
        } else if tasks.hasOpenTasks {
            (end, basis) = (.killedWithBackgroundTask, tasks.hasExpiredTask
                ? "a background task had expired without being ended" : "a background task was still open")
        } else if process.handlerOverrun {
            (end, basis) = (.killedInBackgroundHandler, "didEnterBackground overran its budget and nothing followed")
        } else if suspendedAtEnd {
            (end, basis) = (.terminatedWhileSuspended, "suspended, then a new launch")
        } else if process.ui == .active || process.ui == .inactive {
            (end, basis) = (.endedInForeground, "the last state was foreground and no callback announced the end")
        } else {
            (end, basis) = (.endedInBackground, "running in the background, no callback announced the end")
        }
        let observed = nextLaunch || processEndObserved
        if !observed, !process.terminated, !tasks.hasOpenTasks, !process.handlerOverrun {
            (end, basis) = (.traceEnded, "the trace ends while the process is alive or suspended")
        }
        if let classification { end = classification }
        tasks.close { rule, message in report(rule, message, scene: nil) }
        // Close the accounting: a process that ends suspended was suspended until its end.
        if let since = process.suspendedSince {
            suspensions.append(SuspensionInterval(start: since, end: t, basis: "ground truth"))
            process.times.suspended += t - since
        } else if end == .terminatedWhileSuspended, let idle = process.idleSince {
            current = process
            accountUI(until: idle)
            process = current!
            suspensions.append(SuspensionInterval(start: idle, end: t, basis: "idle in the background, then a new launch"))
            process.times.suspended += t - idle
        } else {
            current = process
            accountUI(until: min(t, max(process.lastT, process.uiSince)))
            process = current!
        }
        processes.append(ProcessSummary(launchT: process.launchT, launchReason: process.reason, lastT: process.lastT,
                                        end: end, endBasis: basis, times: process.times))
        current = nil
        processEndObserved = false
    }

    private var processEndObserved = false
}
