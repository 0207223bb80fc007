// The columns of each kind of row, in the schema's order. Every column is optional: a row read from elsewhere
// may lack one (it reads as nil, as a null does); the writer fills in every column the schema requires.

/// Time in each state of a trace or a process (ns): the `active_ns` … `suspended_ns` columns.
public struct StateColumns: Sendable, Hashable {
    /// `active_ns`.
    public var active: Int64?
    /// `inactive_ns`.
    public var inactive: Int64?
    /// `background_ns`.
    public var background: Int64?
    /// `suspended_ns`.
    public var suspended: Int64?

    /// The four times.
    public init(active: Int64? = nil, inactive: Int64? = nil, background: Int64? = nil, suspended: Int64? = nil) {
        (self.active, self.inactive, self.background, self.suspended) = (active, inactive, background, suspended)
    }
}

/// A `trace` row's columns: one per trace.
public struct TraceColumns: Sendable, Hashable {
    /// `events`: events read.
    public var events: Int64?
    /// `span_ns`: from the first event to the last.
    public var span: Int64?
    /// `processes`: processes in the trace.
    public var processes: Int64?
    /// `errors` and `warnings`: findings by severity.
    public var errors: Int64?
    public var warnings: Int64?
    /// `findings_omitted`: findings counted beyond those kept.
    public var findingsOmitted: Int64?
    /// Time in each state.
    public var times = StateColumns()
    /// `suspensions`: suspensions inferred.
    public var suspensions: Int64?
    /// `truncated`: whether the trace was read only to its last whole frame.
    public var truncated: Bool?
    /// `input_warnings`: warnings the reader gave.
    public var inputWarnings: Int64?

    /// No columns set.
    public init() {}
}

/// A `process` row's columns: one per process of a trace.
public struct ProcessColumns: Sendable, Hashable {
    /// `process`: its number in the trace, from 1.
    public var process: Int64?
    /// `launch_reason`.
    public var launchReason: String?
    /// `launch_t_ns`: when it launched.
    public var launchT: Int64?
    /// `launch_ns`: from its launch to its first active scene.
    public var launch: Int64?
    /// `end`: how it ended.
    public var end: String?
    /// Time in each state.
    public var times = StateColumns()

    /// No columns set.
    public init() {}
}

/// A `handler` row's columns: one per handler kind of a trace.
public struct HandlerColumns: Sendable, Hashable {
    /// `handler`: the callback's event name.
    public var handler: String?
    /// `count`, `total_ns`, `max_ns`, `mean_ns`: its calls and their durations.
    public var count: Int64?
    public var total: Int64?
    public var longest: Int64?
    public var mean: Int64?

    /// No columns set.
    public init() {}
}

/// A `task` row's columns: one per background task.
public struct TaskColumns: Sendable, Hashable {
    /// `task_kind`: background-task, refresh-task or processing-task.
    public var kind: String?
    /// `task_id`, `task_name`.
    public var id: Int64?
    public var name: String?
    /// `begin_t_ns`, `end_t_ns`, `duration_ns`.
    public var begin: Int64?
    public var end: Int64?
    public var duration: Int64?
    /// `expired`, `ended`.
    public var expired: Bool?
    public var ended: Bool?

    /// No columns set.
    public init() {}
}

/// A `service` row's columns: one per service of a service process.
public struct ServiceColumns: Sendable, Hashable {
    /// `process`: its process's number in the trace, from 1.
    public var process: Int64?
    /// `service`: its name.
    public var service: String?
    /// `start_t_ns`, `ready_ns`: its start, and from there to its readiness.
    public var start: Int64?
    public var ready: Int64?
    /// `running_ns`: from its readiness to its shutdown request (or its stop, when it stopped unasked).
    public var running: Int64?
    /// `shutdown_t_ns`, `shutdown_ns`: its group's shutdown request, and from there to its stop.
    public var shutdownT: Int64?
    public var shutdown: Int64?
    /// `stopped`, `error`, `cancelled`: whether it stopped, the error it threw, whether it was cancelled.
    public var stopped: Bool?
    public var error: String?
    public var cancelled: Bool?

    /// No columns set.
    public init() {}
}

/// A `finding` row's columns: one per finding.
public struct FindingColumns: Sendable, Hashable {
    /// `rule`, `severity`, `message`.
    public var rule: String?
    public var severity: String?
    public var message: String?
    /// `event_index`, `t_ns`: the event it is about.
    public var eventIndex: Int64?
    public var t: Int64?
    /// `scene`.
    public var scene: String?
    /// `measured_ns`, `budget_ns`: for a budget.
    public var measured: Int64?
    public var budget: Int64?

    /// No columns set.
    public init() {}
}

/// An `error` row's columns: a trace that could not be read.
public struct ErrorColumns: Sendable, Hashable {
    /// `error`: why, naming the file and the position.
    public var error: String?
    /// `error_kind`: the kind of damage.
    public var kind: String?

    /// An error row's columns.
    public init(error: String? = nil, kind: String? = nil) {
        (self.error, self.kind) = (error, kind)
    }
}
