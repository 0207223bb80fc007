import LifetraceCore

extension TaskTracker {
    /// The process is running at `t` with no event since the last (``TraceAnalyzer/advance(to:)``): reports each
    /// open task whose deadline the time alone proves passed — its expiration unanswered past the grace, or,
    /// unexpired, its budget spent — once per deadline, marking it so that its end, or its process's, reports that
    /// deadline no more.
    mutating func judgeRunning(at t: Int64, limits: Limits, reports: inout [ModelEngine.Report]) {
        for position in open.indices {
            let task = open[position]
            if let expired = task.expired {
                guard !task.judgedExpiration, let grace = limits.expirationGrace, t - expired > grace else { continue }
                open[position].judgedExpiration = true
                let late = t - expired
                if task.kind == .application {
                    reports.append(
                        report(
                            .taskNotEndedOnExpiration,
                            "\(task.label) expired at t=\(Nanoseconds.seconds(expired)) and has not been ended \(Nanoseconds.short(late)) later, more than the \(Nanoseconds.short(grace)) allowed",
                            late, grace))
                } else {
                    let why = task.handlerRan ? "its expiration handler ran" : "the user started using the device"
                    reports.append(
                        report(
                            .scheduledTaskNeverCompleted,
                            "\(task.label) has not been completed \(Nanoseconds.short(late)) after \(why), more than the \(Nanoseconds.short(grace)) allowed",
                            late, grace))
                }
                continue
            }
            guard !task.judgedBudget else { continue }
            switch task.kind {
            case .application:
                guard let since = budgetSince(of: task), let budget = limits.backgroundTask, t - since > budget else {
                    continue
                }
                open[position].judgedBudget = true
                reports.append(
                    report(
                        .taskOverBackgroundTime,
                        "\(task.label) has run \(Nanoseconds.short(t - since)) in the background and has not been ended, over its \(Nanoseconds.short(budget))",
                        t - since, budget))
            case .refresh:
                guard let budget = limits.refreshTask, t - task.begin > budget else { continue }
                open[position].judgedBudget = true
                reports.append(
                    report(
                        .refreshTaskOverTime,
                        "\(task.label) has run \(Nanoseconds.short(t - task.begin)) and has not been completed, over its \(Nanoseconds.short(budget))",
                        t - task.begin, budget))
            case .processing:
                continue
            }
        }
    }

    private func report(_ rule: RuleID, _ message: String, _ measured: Int64, _ budget: Int64) -> ModelEngine.Report {
        ModelEngine.Report(rule: rule, message: message, scene: nil, measured: measured, budget: budget)
    }
}
