import LifetraceCore
import LifetraceFormat

/// Pairs background tasks by id: `task.begin`/`task.expire`/`task.end`, and the BGTaskScheduler pairs.
struct TaskTracker {
    struct OpenTask {
        var begin: Int64
        var index: Int
        var name: String?
        var expired: Int64?
        var kind: EventKind
    }

    private(set) var open: [Int64: OpenTask] = [:]
    private var openRefresh: [Int64: (t: Int64, index: Int)] = [:]
    private var openProcessing: [Int64: (t: Int64, index: Int)] = [:]

    var hasOpenTasks: Bool { !open.isEmpty || !openRefresh.isEmpty || !openProcessing.isEmpty }
    var hasExpiredTask: Bool { open.values.contains { $0.expired != nil } }

    /// Feeds a task event of `block`; appends a report for each finding.
    mutating func consume(
        _ event: EventRecord, of block: borrowing EventBlock, index: Int, backgroundTaskBudget: Int64?,
        refreshTaskBudget: Int64?, reports: inout [ModelEngine.Report]
    ) {
        func report(_ rule: String, _ message: String, _ measured: Int64?, _ budget: Int64?) {
            reports.append(ModelEngine.Report(rule: rule, message: message, scene: nil, measured: measured, budget: budget))
        }
        guard event.fields.contains(.task) else { return }
        let id = event.task
        switch event.kind {
        case .taskBegin:
            if open[id] != nil { report("LT040", "task.begin for task \(id), which is already open", nil, nil) }
            open[id] = OpenTask(begin: event.t, index: index, name: block.string(event.name), kind: .taskBegin)
        case .taskExpire:
            if open[id] != nil { open[id]?.expired = event.t }
        case .taskEnd:
            guard let task = open.removeValue(forKey: id) else {
                report("LT040", "task.end for task \(id), which is not open (never begun, or already ended)", nil, nil)
                return
            }
            let length = event.t - task.begin
            if task.expired == nil, let budget = backgroundTaskBudget, length > budget {
                report("LT043", "background task \(id)\(task.name.map { " \"\($0)\"" } ?? "") ran \(Nanoseconds.short(length)), over its \(Nanoseconds.short(budget))",
                       length, budget)
            }
        case .bgRefreshBegin: openRefresh[id] = (event.t, index)
        case .bgRefreshEnd:
            if let begin = openRefresh.removeValue(forKey: id), let budget = refreshTaskBudget,
                event.t - begin.t > budget {
                report("LT052", "refresh task \(id) ran \(Nanoseconds.short(event.t - begin.t)), over its \(Nanoseconds.short(budget))",
                       event.t - begin.t, budget)
            }
        case .bgProcessingBegin: openProcessing[id] = (event.t, index)
        case .bgProcessingEnd: openProcessing.removeValue(forKey: id)
        default: break
        }
    }

    /// The process is suspended or ends: every task still open is a leak. Returns the findings and clears.
    mutating func close(reports: inout [ModelEngine.Report]) {
        func report(_ rule: String, _ message: String) {
            reports.append(ModelEngine.Report(rule: rule, message: message, scene: nil, measured: nil, budget: nil))
        }
        for (id, task) in open.sorted(by: { $0.value.begin < $1.value.begin }) {
            let name = task.name.map { " \"\($0)\"" } ?? ""
            if let expired = task.expired {
                report("LT042", "background task \(id)\(name) expired at t=\(Nanoseconds.seconds(expired)) and its expiration handler did not end it")
            } else {
                report("LT041", "background task \(id)\(name), begun at t=\(Nanoseconds.seconds(task.begin)), was never ended")
            }
        }
        open.removeAll()
        openRefresh.removeAll()
        openProcessing.removeAll()
    }
}
