import LifetraceCore
import LifetraceFormat

/// Pairs background tasks by id: `task.begin`/`task.expire`/`task.end`, and the BGTaskScheduler pairs.
///
/// A process has a handful of tasks open at a time: they are kept in small arrays, searched from the most
/// recent, with no hashing and no allocation once the arrays have grown.
struct TaskTracker {
    struct OpenTask {
        var id: Int64
        var begin: Int64
        var index: Int
        var name: String?
        var expired: Int64?
    }

    private(set) var open: [OpenTask] = []
    private var openRefresh: [(id: Int64, t: Int64)] = []
    private var openProcessing: [Int64] = []

    var hasOpenTasks: Bool { !open.isEmpty || !openRefresh.isEmpty || !openProcessing.isEmpty }
    var hasExpiredTask: Bool { open.contains { $0.expired != nil } }

    /// Feeds a task event of `block`; appends a report for each finding.
    mutating func consume(
        _ event: EventRecord, of block: borrowing EventBlock, index: Int, backgroundTaskBudget: Int64?,
        refreshTaskBudget: Int64?, reports: inout [ModelEngine.Report]
    ) {
        func report(_ rule: String, _ message: String, _ measured: Int64?, _ budget: Int64?) {
            reports.append(ModelEngine.Report(rule: rule, message: message, scene: nil, measured: measured, budget: budget))
        }
        guard event.fields.contains(.task), let extra = block.extras(of: event) else { return }
        let id = extra.task
        switch event.kind {
        case .taskBegin:
            let task = OpenTask(id: id, begin: event.t, index: index, name: block.string(extra.name))
            if let known = open.lastIndex(where: { $0.id == id }) {
                report("LT040", "task.begin for task \(id), which is already open", nil, nil)
                open[known] = task
            } else {
                open.append(task)
            }
        case .taskExpire:
            if let known = open.lastIndex(where: { $0.id == id }) { open[known].expired = event.t }
        case .taskEnd:
            guard let known = open.lastIndex(where: { $0.id == id }) else {
                report("LT040", "task.end for task \(id), which is not open (never begun, or already ended)", nil, nil)
                return
            }
            let task = open.remove(at: known)
            let length = event.t - task.begin
            if task.expired == nil, let budget = backgroundTaskBudget, length > budget {
                report("LT043", "background task \(id)\(task.name.map { " \"\($0)\"" } ?? "") ran \(Nanoseconds.short(length)), over its \(Nanoseconds.short(budget))",
                       length, budget)
            }
        case .bgRefreshBegin:
            if let known = openRefresh.lastIndex(where: { $0.id == id }) { openRefresh.remove(at: known) }
            openRefresh.append((id, event.t))
        case .bgRefreshEnd:
            guard let known = openRefresh.lastIndex(where: { $0.id == id }) else { return }
            let begin = openRefresh.remove(at: known).t
            if let budget = refreshTaskBudget, event.t - begin > budget {
                report("LT052", "refresh task \(id) ran \(Nanoseconds.short(event.t - begin)), over its \(Nanoseconds.short(budget))",
                       event.t - begin, budget)
            }
        case .bgProcessingBegin:
            if !openProcessing.contains(id) { openProcessing.append(id) }
        case .bgProcessingEnd:
            if let known = openProcessing.lastIndex(of: id) { openProcessing.remove(at: known) }
        default: break
        }
    }

    /// The process is suspended or ends: every task still open is a leak. Reports them, oldest first, and
    /// clears.
    mutating func close(reports: inout [ModelEngine.Report]) {
        func report(_ rule: String, _ message: String) {
            reports.append(ModelEngine.Report(rule: rule, message: message, scene: nil, measured: nil, budget: nil))
        }
        let leaked = open.count > 1
            ? open.sorted { $0.begin != $1.begin ? $0.begin < $1.begin : $0.index < $1.index } : open
        for task in leaked {
            let name = task.name.map { " \"\($0)\"" } ?? ""
            if let expired = task.expired {
                report("LT042", "background task \(task.id)\(name) expired at t=\(Nanoseconds.seconds(expired)) and its expiration handler did not end it")
            } else {
                report("LT041", "background task \(task.id)\(name), begun at t=\(Nanoseconds.seconds(task.begin)), was never ended")
            }
        }
        if !open.isEmpty { open.removeAll(keepingCapacity: true) }
        if !openRefresh.isEmpty { openRefresh.removeAll(keepingCapacity: true) }
        if !openProcessing.isEmpty { openProcessing.removeAll(keepingCapacity: true) }
    }
}
