import LifetraceCore
import LifetraceFormat

/// Pairs background tasks by id — `task.begin`/`task.expire`/`task.end`, and the BGTaskScheduler pairs — and
/// checks them against the rules Apple's documentation sets:
///
/// - A `UIApplication` task's time counts in the background only: `backgroundTimeRemaining` "is valid only
///   after the app enters the background and has started at least one task ... in the foreground", and a
///   return to the foreground gives unlimited time again. LT043 measures from the later of the task's begin and
///   the last entry into the background.
/// - Its expiration handler must end it: "Failure to end the task explicitly will result in the termination of
///   the app" (`beginBackgroundTask(withName:expirationHandler:)`). LT042: ended more than the grace after the
///   handler ran, or never.
/// - A `BGTask` must be completed: "Not calling `setTaskCompleted(success:)` before the time for the task
///   expires may result in the system killing your app". LT044: never completed; LT045: completed more than the
///   grace after its time expired, which for a processing task is also when the user starts using the device
///   ("The system terminates any background processing tasks running when the user starts using the device",
///   `BGProcessingTask`).
///
/// A process has a handful of tasks open at a time: they are kept in one small array, searched from the most
/// recent, with no hashing and no allocation once it has grown. Past ``indexThreshold`` open tasks (a trace
/// that never ends its tasks), a dictionary finds them instead, so the work stays linear in the events. Moving
/// between the foreground and the background touches no open task (each task's budget start is worked out when
/// it ends), and at most ``maximumOpen`` tasks are followed at once, so memory stays bounded: a task begun past
/// that is counted, and the process's end reports how many were not followed.
package struct TaskTracker {
    /// The three kinds of task a trace records.
    package enum Kind: Equatable {
        /// `beginBackgroundTask(withName:expirationHandler:)`.
        case application
        /// `BGAppRefreshTask`.
        case refresh
        /// `BGProcessingTask`.
        case processing

        var noun: String {
            switch self {
            case .application: "background task"
            case .refresh: "refresh task"
            case .processing: "processing task"
            }
        }
    }

    struct OpenTask {
        var id: Int64
        var kind: Kind
        var begin: Int64
        var index: Int
        var name: String?
        /// When its time expired: its expiration handler ran, or (a processing task) the app came to the
        /// foreground.
        var expired: Int64?
        /// Whether ``expired`` is the handler's (`task.expire`) rather than the foreground's.
        var handlerRan = false
        /// Since when its budget counted when it began: its begin if the app was in the background then, else
        /// `nil` (see ``TaskTracker/budgetSince(of:)``).
        var budgetSince: Int64?
        /// How many moves between foreground and background the process had made when the task began.
        var moves = 0
        /// Whether its budget, or the grace after its expiration, was reported passed while it was open
        /// (``judgeRunning(at:limits:reports:)``): its end, or its process's, reports that deadline no more.
        var judgedBudget = false
        var judgedExpiration = false

        var label: String { "\(kind.noun) \(id)\(name.map { " \"\($0)\"" } ?? "")" }
    }

    /// A task's life, as summaries report it: when it began and ended (`nil`: never, the process ended or was
    /// suspended with it open), and whether its time expired.
    package struct Life: Equatable {
        /// The kind of task.
        package var kind: Kind
        /// Its identifier, as the app's `task` field had it.
        package var id: Int64
        /// Its name, if recorded.
        package var name: String?
        /// When it began.
        package var begin: Int64
        /// When it ended; `nil`: never.
        package var end: Int64?
        /// Whether its time expired.
        package var expired: Bool
    }

    /// Tasks that ended, or were closed open, since the log was last emptied; `nil` when nobody reads it.
    var log: [Life]?

    /// The budgets and the grace the rules use.
    struct Limits {
        var backgroundTask: Int64?
        var refreshTask: Int64?
        /// How long after its time expired a task may still be ended or completed.
        var expirationGrace: Int64?
    }

    /// The open tasks (set here and by ``judgeRunning(at:limits:reports:)``).
    var open: [OpenTask] = []
    /// Where each open task is in ``open``, kept only while many are open.
    var positions: [TaskKey: Int]?
    /// How many open tasks a linear search handles before the dictionary takes over.
    static let indexThreshold = 32
    /// The most tasks followed open at once (an app has a handful): past it, a task that begins is counted in
    /// ``unfollowed`` instead, so a trace that begins millions of tasks and never ends them takes bounded memory.
    static let maximumOpen = 65_536
    /// Tasks begun while ``maximumOpen`` were open, since the last ``close(reports:)``.
    var unfollowed = 0
    /// Moves between foreground and background so far (``uiMoved(toBackground:at:)``), whether the last was
    /// into the background, and when the app last entered it.
    private var moves = 0
    private var inBackground = false
    private var backgroundSince: Int64 = 0
    /// The open processing tasks whose time had not expired when they began, by id: a return to the
    /// foreground expires them (each is looked at once, then the list is emptied).
    var unexpiredProcessing: [Int64] = []

    struct TaskKey: Hashable {
        var id: Int64
        var kind: Kind
    }

    var hasOpenTasks: Bool { !open.isEmpty }
    var hasExpiredTask: Bool { open.contains { $0.expired != nil } }

    /// Feeds a task event of `block`, read while the app is in the background or not; appends a report for
    /// each finding.
    mutating func consume(
        _ event: EventRecord, of block: borrowing EventBlock, index: Int, inBackground: Bool, limits: Limits,
        reports: inout [ModelEngine.Report]
    ) {
        func report(_ rule: RuleID, _ message: String, _ measured: Int64? = nil, _ budget: Int64? = nil) {
            reports.append(
                ModelEngine.Report(rule: rule, message: message, scene: nil, measured: measured, budget: budget))
        }
        guard event.fields.contains(.task), let extra = block.extras(of: event) else { return }
        let id = extra.task
        switch event.kind {
        case .taskBegin, .bgRefreshBegin, .bgProcessingBegin:
            let kind: Kind =
                event.kind == .taskBegin ? .application : event.kind == .bgRefreshBegin ? .refresh : .processing
            // BGTasks run in the background: their time counts from their start.
            let since = inBackground || kind != .application ? event.t : nil
            let task = OpenTask(
                id: id, kind: kind, begin: event.t, index: index, name: block.string(extra.name),
                budgetSince: since, moves: moves)
            if let known = find(id, kind) {
                if kind == .application {
                    report(.taskEndWithoutBegin, "task.begin for task \(id), which is already open")
                }
                open[known] = task
            } else if open.count >= Self.maximumOpen {
                unfollowed += 1
                return
            } else {
                insert(task)
            }
            if kind == .processing { noteUnexpiredProcessing(id) }
        case .taskExpire:
            if let known = find(id, .application) ?? find(id, .refresh) ?? find(id, .processing),
                open[known].expired == nil || !open[known].handlerRan
            {
                open[known].expired = event.t
                open[known].handlerRan = true
            }
        case .taskEnd:
            guard let known = find(id, .application) else {
                // A log capture shows the end of a task begun before it began, and says so.
                if block.attribute(Attribute.Key.begunBeforeCapture, of: event) == .bool(true) { return }
                // It may be one begun while too many were open to follow: nothing is known of it.
                if unfollowed > 0 { return }
                report(
                    .taskEndWithoutBegin, "task.end for task \(id), which is not open (never begun, or already ended)")
                return
            }
            let task = remove(at: known)
            log?.append(Life(task, end: event.t))
            if let expired = task.expired {
                if !task.judgedExpiration, let grace = limits.expirationGrace, event.t - expired > grace {
                    report(
                        .taskNotEndedOnExpiration,
                        "\(task.label) was ended \(Nanoseconds.short(event.t - expired)) after its expiration handler ran, more than the \(Nanoseconds.short(grace)) allowed",
                        event.t - expired, grace)
                }
            } else if !task.judgedBudget, let since = budgetSince(of: task), let budget = limits.backgroundTask,
                event.t - since > budget
            {
                let length = event.t - since
                report(
                    .taskOverBackgroundTime,
                    "\(task.label) ran \(Nanoseconds.short(length)) in the background, over its \(Nanoseconds.short(budget))",
                    length, budget)
            }
        case .bgRefreshEnd, .bgProcessingEnd:
            let kind: Kind = event.kind == .bgRefreshEnd ? .refresh : .processing
            guard let known = find(id, kind) else { return }
            let task = remove(at: known)
            log?.append(Life(task, end: event.t))
            if let expired = task.expired {
                if !task.judgedExpiration, let grace = limits.expirationGrace, event.t - expired > grace {
                    let why = task.handlerRan ? "its expiration handler ran" : "the user started using the device"
                    report(
                        .scheduledTaskCompletedLate,
                        "\(task.label) was completed \(Nanoseconds.short(event.t - expired)) after \(why), more than the \(Nanoseconds.short(grace)) allowed",
                        event.t - expired, grace)
                }
            } else if kind == .refresh, !task.judgedBudget, let budget = limits.refreshTask,
                event.t - task.begin > budget
            {
                report(
                    .refreshTaskOverTime,
                    "\(task.label) ran \(Nanoseconds.short(event.t - task.begin)), over its \(Nanoseconds.short(budget))",
                    event.t - task.begin, budget)
            }
        default: break
        }
    }

    /// The app entered the background (`true`) or the foreground at `t`: the budgets of the open tasks start
    /// counting, or stop and start afresh next time; a processing task's time ends when the user comes back.
    mutating func uiMoved(toBackground background: Bool, at t: Int64) {
        moves += 1
        inBackground = background
        if background {
            backgroundSince = t
        } else {
            for id in unexpiredProcessing {
                if let index = find(id, .processing), open[index].expired == nil { open[index].expired = t }
            }
            unexpiredProcessing.removeAll(keepingCapacity: true)
        }
    }

    /// Since when the budget of the application task `task` counts: the later of its begin and the app's last
    /// entry into the background; `nil` while the app is in the foreground.
    func budgetSince(of task: OpenTask) -> Int64? {
        if task.moves == moves { return task.budgetSince }
        return inBackground ? max(backgroundSince, task.begin) : nil
    }

    /// Notes an open processing task whose time a return to the foreground ends; keeps the list no longer than
    /// the open tasks (with room), however many begin and end without a return.
    private mutating func noteUnexpiredProcessing(_ id: Int64) {
        if unexpiredProcessing.count >= 2 * Self.maximumOpen {
            let kept = unexpiredProcessing.filter { id in find(id, .processing).map { open[$0].expired == nil } ?? false
            }
            unexpiredProcessing = kept
        }
        unexpiredProcessing.append(id)
    }

    // MARK: - The open tasks

    /// The position in ``open`` of the open task `id` of `kind`.
    @inline(__always)
    private func find(_ id: Int64, _ kind: Kind) -> Int? {
        if let positions { return positions[TaskKey(id: id, kind: kind)] }
        return open.lastIndex { $0.id == id && $0.kind == kind }
    }

    private mutating func insert(_ task: OpenTask) {
        open.append(task)
        if positions != nil {
            positions![TaskKey(id: task.id, kind: task.kind)] = open.count - 1
        } else if open.count > Self.indexThreshold {
            positions = Dictionary(
                uniqueKeysWithValues: open.indices.map { (TaskKey(id: open[$0].id, kind: open[$0].kind), $0) })
        }
    }

    /// Removes the task at `position`, moving the last one into its place (the order of ``open`` is not kept:
    /// ``close(reports:)`` sorts what it reports).
    private mutating func remove(at position: Int) -> OpenTask {
        let task = open[position]
        let last = open.removeLast()
        if position < open.count { open[position] = last }
        if positions != nil {
            positions![TaskKey(id: task.id, kind: task.kind)] = nil
            if position < open.count { positions![TaskKey(id: last.id, kind: last.kind)] = position }
            if open.isEmpty { positions = nil }
        }
        return task
    }
}

extension TaskTracker.Life {
    /// The life of `task`, ended at `end`.
    init(_ task: TaskTracker.OpenTask, end: Int64?) {
        self.init(
            kind: task.kind, id: task.id, name: task.name, begin: task.begin, end: end, expired: task.expired != nil)
    }
}
