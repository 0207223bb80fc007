// Deadlines judged while they run out: the analyzer told the time with no event (`TraceAnalyzer.advance(to:)`),
// as a live check is, reports what the time alone proves — a handler still running past its budget, a launch
// that has not reached active past its budget, a background task past its budget or past the grace after its
// expiration (TaskTracker+Running.swift) — once, and the event that would have proved it later (the
// handler's return, the first activation, the process's end) reports it no more. A trace read from a file is
// never told the time: `check` judges it at those events, as before.

import LifetraceCore
import LifetraceFormat

extension AnalysisCore {
    /// The running process is still running at `t`, with no event since the last: reports the deadlines that
    /// passed by then.
    mutating func advance(to t: Int64) {
        guard process.alive, t > last, suspension.suspendedSince == nil else { return }
        judgeRunningHandlers(at: t)
        judgeWaitingLaunch(at: t)
        if tasks.hasOpenTasks { tasks.judgeRunning(at: t, limits: taskLimits, reports: &reports) }
        if !reports.isEmpty {
            collector.collect(
                reports, index: max(index - 1, 0), t: t, block: nil, row: 0, blockStart: index, observer: observer)
            reports.removeAll(keepingCapacity: true)
        }
    }

    /// Each handler written unfinished, still waiting for its return at `t`, over a budget by then: reported as
    /// running (``ProcessTracker/UnfinishedHandler/judgedRunning``).
    private mutating func judgeRunningHandlers(at t: Int64) {
        for position in process.state.unfinished.indices where !process.state.unfinished[position].judgedRunning {
            let handler = process.state.unfinished[position]
            guard handler.provenUntil == nil else { continue }
            let before = reports.count
            engine.handlerUnreturned(
                handler.kind, bound: t - handler.t, phase: handler.phase, scene: handler.scene,
                running: true, reports: &reports)
            if reports.count > before { process.state.unfinished[position].judgedRunning = true }
        }
    }

    /// A launch that has not reached active by `t`, over the launch budget: reported once, as waiting.
    private mutating func judgeWaitingLaunch(at t: Int64) {
        let state = process.state
        guard state.firstActive == nil, state.launchMeasured, !state.launchJudgedWaiting,
            state.reason == nil || state.reason == "user", let budget = launchBudget, t - state.launchT > budget
        else { return }
        process.state.launchJudgedWaiting = true
        let waited = t - state.launchT
        report(
            .slowLaunch,
            "no scene has become active \(Nanoseconds.short(waited)) after launch, over the \(Nanoseconds.short(budget)) budget",
            scene: nil, measured: waited, budget: budget)
    }
}
