import LifetraceCore
import LifetraceFormat

extension TaskTracker {
    /// The process is suspended or ends: judges every task still open by what the trace proves, reports, oldest
    /// first, those whose deadline it shows passing before the process stopped, and clears.
    ///
    /// How a process stopped is never a finding by itself: a UI test's `terminate()` is a SIGKILL, a crash or a
    /// jetsam kill ends whatever was running, a capture stops wherever it was cut. A task is reported when:
    ///
    /// - its expiration handler ran (or, for a processing task, the user came back) and the process lived on, or
    ///   died, more than the grace after it without ending the task — the expiration is the deadline itself;
    /// - it ran in the background, unexpired, longer than its budget before the process's last sign of life
    ///   (a `UIApplication` task from the later of its begin and the last entry into the background; a refresh
    ///   task from its begin). A processing task has no budget of its own.
    ///
    /// Whatever the end — SIGKILL, crash, jetsam, a relaunch, the trace's end — the same proof is asked for.
    @discardableResult
    mutating func close(at stop: Stop, limits: Limits, reports: inout [ModelEngine.Report]) -> OpenAtStop {
        func report(_ rule: RuleID, _ message: String, _ measured: Int64? = nil, _ budget: Int64? = nil) {
            reports.append(
                ModelEngine.Report(rule: rule, message: message, scene: nil, measured: measured, budget: budget))
        }
        var unproven = OpenAtStop()
        // First, so that it is among the findings kept even when the tasks followed are leaked too.
        if unfollowed > 0 {
            report(
                .taskLeaked,
                "\(unfollowed) more \(Plural.noun(unfollowed, "task was", plural: "tasks were")) begun while \(Self.maximumOpen) "
                    + "were open, the most lifetrace follows at once: whether they ended is not checked")
            unfollowed = 0
        }
        // Sorted in place: the open tasks go once reported.
        positions = nil
        if open.count > 1 { open.sort { $0.begin != $1.begin ? $0.begin < $1.begin : $0.index < $1.index } }
        let ended =
            stop.diedBy == nil ? "was still open at its process's last event" : "was still open when its process ended"
        for task in open {
            log?.append(Life(task, end: nil))
            if let expired = task.expired {
                // Reported while it was open (a live check): once.
                if task.judgedExpiration { continue }
                // Past the grace after its expiration, alive or dead by then, the task was still open.
                let lateness = (stop.diedBy ?? stop.aliveUntil) - expired
                guard let grace = limits.expirationGrace, lateness > grace else {
                    unproven.note(age: stop.aliveUntil - task.begin)
                    continue
                }
                if task.kind == .application {
                    report(
                        .taskNotEndedOnExpiration,
                        "\(task.label) expired at t=\(Nanoseconds.seconds(expired)) and its expiration handler did not end it: it \(ended)",
                        lateness, grace)
                } else {
                    let why = task.handlerRan ? "its expiration handler ran" : "the user started using the device"
                    report(
                        .scheduledTaskNeverCompleted,
                        "\(task.label), begun at t=\(Nanoseconds.seconds(task.begin)), was never completed; its time expired at t=\(Nanoseconds.seconds(expired)), when \(why), and it \(ended)",
                        lateness, grace)
                }
                continue
            }
            // Unexpired: its budget, from when it counts, against the process's last sign of life.
            let since: Int64?
            let budget: Int64?
            switch task.kind {
            case .application: (since, budget) = (budgetSince(of: task), limits.backgroundTask)
            case .refresh: (since, budget) = (task.begin, limits.refreshTask)
            case .processing: (since, budget) = (nil, nil)
            }
            if task.judgedBudget { continue }
            guard let since, let budget, stop.aliveUntil - since > budget else {
                unproven.note(age: stop.aliveUntil - task.begin)
                continue
            }
            let length = stop.aliveUntil - since
            if task.kind == .application {
                report(
                    .taskLeaked,
                    "\(task.label), begun at t=\(Nanoseconds.seconds(task.begin)), was never ended: it had run \(Nanoseconds.short(length)) in the background, over its \(Nanoseconds.short(budget)), and \(ended)",
                    length, budget)
            } else {
                report(
                    .scheduledTaskNeverCompleted,
                    "\(task.label), begun at t=\(Nanoseconds.seconds(task.begin)), was never completed: it had run \(Nanoseconds.short(length)), over its \(Nanoseconds.short(budget)), and \(ended)",
                    length, budget)
            }
        }
        if !open.isEmpty { open.removeAll(keepingCapacity: true) }
        positions = nil
        unexpiredProcessing.removeAll(keepingCapacity: true)
        return unproven
    }
}
