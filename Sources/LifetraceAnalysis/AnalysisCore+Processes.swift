// What an event changes of its process: its UI's state, its suspensions, its end. The books themselves are
// kept by ProcessTracker and SuspensionTracker; here the analyzer decides what goes in them.

import LifetraceCore
import LifetraceFormat

extension AnalysisCore {
    // MARK: - A process's start and end

    /// A process starts with `event`; the one running, if any, ends. Once per process: kept out of the loop.
    @inline(never)
    mutating func startProcess(_ event: EventRecord, _ block: borrowing EventBlock) {
        if process.alive { endProcess(at: event.t, nextLaunch: true) }
        suspension.processStarted(at: event.t, isLaunch: event.kind == .processLaunch)
        process.start(event, of: block)
        processStartPending = true
    }

    mutating func endProcess(at t: Int64, nextLaunch: Bool = false) {
        guard process.alive else { return }
        let observed = process.endObserved
        // Without a recorded exit, a recorder that wrote heartbeats would have written another within an interval
        // of its last event: the process was gone by then.
        let lastT = process.state.lastT
        let goneBy =
            observed
            ? t
            : header?.heartbeatNanoseconds.map { lastT.addingReportingOverflow($0).overflow ? lastT : lastT + $0 }
                ?? lastT
        services?.processEnded(at: observed ? t : lastT, goneBy: goneBy, exitObserved: observed, reports: &reports)
        if !process.state.unfinished.isEmpty { judgeUnreturnedHandlers() }
        let suspendedAtEnd = suspension.suspendedAtEnd(nextLaunch: nextLaunch)
        let state = process.state
        let openTask = tasks.hasOpenTasks
        let expiredTask = tasks.hasExpiredTask
        // How the process ended proves nothing of its open tasks: each is judged by its own deadline, against the
        // last moment the trace shows the process alive (its exit, or its last event) and the latest it may have
        // lived (its exit, the next launch; none when the trace ends with it alive).
        let stop = TaskTracker.Stop(aliveUntil: observed ? t : state.lastT, diedBy: observed || nextLaunch ? t : nil)
        let leftOpen = tasks.close(at: stop, limits: taskLimits, reports: &reports)
        let (end, basis) = ExitClassifier.classify(
            ExitClassifier.Facts(
                terminated: state.terminated, derived: derived, nextLaunch: nextLaunch, exitObserved: observed,
                openTask: openTask, expiredTask: expiredTask, leftOpen: leftOpen, handlerOverrun: state.handlerOverrun,
                overrunUnreturned: state.overrunUnreturned, exitCause: state.exitCause, suspended: suspendedAtEnd,
                ui: state.ui))
        // An observed exit ends the process's open tasks there; otherwise its last sign of life does.
        observer?.processEnded(at: observed ? t : state.lastT, as: end)
        // Close the accounting: a process that ends suspended was suspended until its end.
        switch suspension.processEnded(at: t, silently: end == .terminatedWhileSuspended) {
        case let .resumed(interval):
            process.accountSuspension(interval, inferred: false, observer: observer)
        case let .inferred(interval):
            accountUI(until: interval.start)
            process.accountSuspension(interval, inferred: true, observer: observer)
        case .none, .suspended:
            accountUI(until: max(state.lastT, process.state.uiSince))
        }
        if end == .cleanTerminate {
            suspension.processAnnouncedEnd(at: observed ? t : max(state.lastT, state.willTerminateEnd ?? state.lastT))
        }
        process.ended(as: end, basis: basis)
    }

    // MARK: - Each event

    // The per-event part (its last sign of life, where its UI is, its end) is written in the analyzer's loop
    // (AnalysisCore.swift), which calls the rare steps below.

    /// The process recorded its exit (`process.exit`): its reason says how it ended.
    @inline(never)
    mutating func processExited(_ event: EventRecord, of block: borrowing EventBlock) {
        process.endObserved = true
        process.state.exitCause = block.extras(of: event).flatMap { block.string($0.reason) }
            .flatMap(ExitClassifier.cause(ofExitReason:))
        endProcess(at: event.t)
    }

    /// Accounts what an event changed of suspension: the time up to a suspension to the UI's state, and a
    /// suspension's time, until this event, to suspended.
    @inline(never)
    mutating func suspensionChanged(_ transition: SuspensionTracker.Transition, at t: Int64) {
        engine.suspensionChanged(at: index)
        switch transition {
        case .none:
            return
        case .suspended:
            // Running until now: the tracker already counts the process suspended.
            process.accountUI(until: t, running: true, observer: observer)
            // Suspended, a process runs nothing: its tasks end here.
            if groundTruth {
                tasks.close(at: TaskTracker.Stop(aliveUntil: t, diedBy: t), limits: taskLimits, reports: &reports)
            }
            return
        case let .inferred(interval):
            accountUI(until: interval.start)
            process.accountSuspension(interval, inferred: true, observer: observer)
        case let .resumed(interval):
            process.accountSuspension(interval, inferred: false, observer: observer)
        }
        process.state.uiSince = t
    }

    /// Accounts the time since the last UI change to the state the UI was in (nothing while suspended).
    @inline(__always)
    mutating func accountUI(until t: Int64) {
        process.accountUI(until: t, running: suspension.suspendedSince == nil, observer: observer)
    }

    /// Whether a process whose UI is in `ui` runs in the background: its UI is there, or it has none. (Chosen
    /// without a branch: `background` and `unattached` are the raw values 2 and 3.)
    @inline(__always)
    static func isBackground(_ ui: ActivationState) -> Bool {
        ui.rawValue & 2 != 0
    }

    // MARK: - The UI's state

    /// Whether the UI, now in `ui` as the models say, moved from where the process's books have it. Before any UI
    /// event the UI is where the launch said (``ProcessTracker/State/launchUI``): no move.
    @inline(__always)
    func uiLeftItsBooks(_ ui: ActivationState) -> Bool {
        ui != process.state.ui && (ui != .unattached || process.state.ui != process.state.launchUI)
    }

    /// Notes `event`'s handler among the longest if it is one (`isHandler`) and longer than the shortest kept. Past
    /// the first handlers, rarely longer than the floor: that test first (`dur` is 0 when absent).
    @inline(__always)
    mutating func noteIfSlowest(_ event: EventRecord, row: Int, of block: borrowing EventBlock, isHandler: Bool) {
        if event.dur > slowest.floor, event.fields.contains(.dur), isHandler {
            slowest.note(event, row: row, of: block, index: index)
        }
    }

    /// The UI changed state with `event`: accounts the time of the state it leaves.
    @inline(never)
    mutating func uiChanged(to ui: ActivationState, _ event: EventRecord, of block: borrowing EventBlock) {
        // An instance that left a state at once was where it went from its start (a scene connected for the
        // foreground): the process too.
        if engine.recounted(at: index) {
            recount(event, of: block)
            if ui == process.state.ui { return }
        }
        // A recording begun after the launch knew nothing of the UI before its snapshot: that time counts as
        // nothing (rather than as background, as a launch's time before its first UI callback does).
        if process.state.ui == .unattached, event.kind == .appState || event.kind == .sceneState {
            process.state.uiSince = event.t
        }
        accountUI(until: event.t)
        enterUI(ui, at: event.t, event, of: block)
    }

    /// The UI is in `ui` from `t` (the time of `event`, or earlier when `event` showed where the UI had been
    /// since): the launch's first activation, the mark of a save due, the tasks' budgets. The time before `t`
    /// is accounted.
    @inline(__always)
    private mutating func enterUI(
        _ ui: ActivationState, at t: Int64, _ event: EventRecord, of block: borrowing EventBlock
    ) {
        // Active from the process's start (an extension's host presents it): no launch to measure.
        if ui == .active, event.kind == .processLaunch { process.state.launchMeasured = false }
        if ui == .active, process.state.firstActive == nil, process.state.launchMeasured {
            process.state.firstActive = t
            let launch = t - process.state.launchT
            if process.state.reason == nil || process.state.reason == "user", let budget = launchBudget,
                launch > budget,
                !process.state.launchJudgedWaiting
            {
                report(
                    .slowLaunch,
                    "the first scene became active \(Nanoseconds.short(launch)) after launch, over the \(Nanoseconds.short(budget)) budget",
                    scene: block.string(event.scene), measured: launch, budget: budget)
            }
        }
        if process.state.ui == .active || process.state.ui == .inactive, ui == .background {
            process.state.backgroundSaveMissing = true
        }
        if Self.isBackground(ui) != Self.isBackground(process.state.ui) {
            tasks.uiMoved(toBackground: Self.isBackground(ui), at: t)
        }
        process.state.ui = ui
    }

    /// A UI instance left a state at once with the current event, and its time there since it entered counted
    /// otherwise (UIKit's scene connected for the foreground, ``LifecycleModel/LeftAtOnce``): so does the
    /// process's, where that is further in the foreground than where the process was counted.
    @inline(never)
    private mutating func recount(_ event: EventRecord, of block: borrowing EventBlock) {
        let (start, ui) = engine.recounted
        guard ui.foregroundRank > process.state.ui.foregroundRank, process.state.uiSince <= start else { return }
        if start > process.state.uiSince { accountUI(until: start) }
        enterUI(ui, at: start, event, of: block)
    }

    // MARK: - Handlers' returns

    /// A handler that returned after its event was written: its budgets, with the duration it brings.
    @inline(never)
    mutating func handlerReturned(_ event: EventRecord, of block: borrowing EventBlock) {
        guard let name = block.extras(of: event).flatMap({ block.string($0.name) }) else { return }
        // A handler found over its budget while it ran was reported then, once.
        if !process.handlerReturned(event, name: name, of: block) {
            engine.handlerReturned(event, name: name, of: block, reports: &reports)
        }
        if let budget = didEnterBackgroundBudget, event.dur > budget,
            name == EventKind.sceneDidEnterBackground.name || name == EventKind.appDidEnterBackground.name
        {
            process.state.handlerOverrun = true
        }
    }

    /// The process ends with handlers written unfinished that never returned: the time from each callback to the
    /// process's last event (while the handler had not returned) is a lower bound of its duration, judged against
    /// its budgets; a `didEnterBackground` handler over its budget means the process was killed in it.
    /// (Apple, "applicationDidEnterBackground(_:)": "If the method does not return before time runs out your app
    /// is terminated".)
    private mutating func judgeUnreturnedHandlers() {
        for handler in process.state.unfinished {
            let bound = (handler.provenUntil ?? process.state.lastT) - handler.t
            guard bound > 0 else { continue }
            if !handler.judgedRunning {
                engine.handlerUnreturned(
                    handler.kind, bound: bound, phase: handler.phase, scene: handler.scene, reports: &reports)
            }
            if let budget = didEnterBackgroundBudget, bound > budget,
                handler.kind == .sceneDidEnterBackground || handler.kind == .appDidEnterBackground
            {
                process.state.handlerOverrun = true
                process.state.overrunUnreturned = true
            }
        }
        process.state.unfinished.removeAll()
    }
}
