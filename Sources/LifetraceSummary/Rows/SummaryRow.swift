/// One summary row: what `lifetrace summarize` writes as a line of JSON Lines and `lifetrace compare` reads back,
/// one table for warehouses (DuckDB, Spark, BigQuery, ClickHouse). `Schemas/summary.schema.json` documents every
/// column; ``CodingKeys`` is the one spelling of each, shared by the writer and the reader.
///
/// Every row starts with the same columns — ``schemaVersion``, the row's kind, ``trace``, and what the trace's
/// header says of the run (``run``) — then the columns of its kind (``columns``), in the schema's order.
/// ``schemaVersion`` changes when a column changes meaning or goes away; new columns and new kinds of row do not
/// change it, so a reader takes a row with columns it does not know (it ignores them) and a kind it does not know
/// (``Columns/other(kind:)``). A column a row lacks reads as `nil`, as a `null` does.
public struct SummaryRow: Sendable, Hashable {
    /// The version of the row schema this library writes and reads: every row's `summary_version`.
    public static let schemaVersion = 1

    /// The trace's path as given to `summarize` (or as a directory walk found it).
    public var trace: String
    /// What the trace's header says of the run.
    public var run: Run
    /// The row's kind and the columns of that kind.
    public var columns: Columns

    /// A row of `trace`, from a run described by `run`.
    public init(trace: String, run: Run, _ columns: Columns) {
        self.trace = trace
        self.run = run
        self.columns = columns
    }

    /// The row's kind, its `row` column.
    public var kind: String { columns.kind }

    /// The kinds of row, with the columns of each.
    public enum Columns: Sendable, Hashable {
        /// One per trace: its size, findings and time in each state.
        case trace(TraceColumns)
        /// One per process of a trace: its launch and how it ended.
        case process(ProcessColumns)
        /// One per handler kind of a trace: calls and durations.
        case handler(HandlerColumns)
        /// One per background task.
        case task(TaskColumns)
        /// One per service of a service process: its start-up and shutdown.
        case service(ServiceColumns)
        /// One per finding.
        case finding(FindingColumns)
        /// A trace that could not be read, alone.
        case error(ErrorColumns)
        /// A kind this version does not know (a later version's): read, and ignored.
        case other(kind: String)

        /// The `row` column.
        public var kind: String {
            switch self {
            case .trace: "trace"
            case .process: "process"
            case .handler: "handler"
            case .task: "task"
            case .service: "service"
            case .finding: "finding"
            case .error: "error"
            case let .other(kind): kind
            }
        }
    }

    /// The columns every row has after its kind and trace: what the trace's header says of the run.
    public struct Run: Sendable, Hashable {
        /// The app's bundle identifier (header `app`).
        public var app: String?
        /// The app's version (header `app_version`).
        public var appVersion: String?
        /// The app's build (header `build`).
        public var build: String?
        /// The operating system and version (header `os_version`).
        public var osVersion: String?
        /// The device model (header `device`).
        public var device: String?
        /// The test the run belongs to (header `test_name`).
        public var testName: String?
        /// What wrote the trace (header `source`).
        public var source: String?

        /// A run with the given header values.
        public init(
            app: String? = nil, appVersion: String? = nil, build: String? = nil, osVersion: String? = nil,
            device: String? = nil, testName: String? = nil, source: String? = nil
        ) {
            (self.app, self.appVersion, self.build, self.osVersion) = (app, appVersion, build, osVersion)
            (self.device, self.testName, self.source) = (device, testName, source)
        }
    }

    /// Every column of every kind of row, as the JSON spells it: the one place a column's name is written.
    ///
    /// The cases are in the schema's order: the common columns, then each kind's.
    public enum CodingKeys: String, CodingKey, Sendable, CaseIterable {
        // Every row.
        case summaryVersion = "summary_version"
        case row, trace
        case app
        case appVersion = "app_version"
        case build
        case osVersion = "os_version"
        case device
        case testName = "test_name"
        case source
        // trace
        case events
        case spanNs = "span_ns"
        case processes, errors, warnings
        case findingsOmitted = "findings_omitted"
        case activeNs = "active_ns"
        case inactiveNs = "inactive_ns"
        case backgroundNs = "background_ns"
        case suspendedNs = "suspended_ns"
        case suspensions, truncated
        case inputWarnings = "input_warnings"
        // process (and service: its process)
        case process
        case launchReason = "launch_reason"
        case launchTNs = "launch_t_ns"
        case launchNs = "launch_ns"
        case end
        // handler
        case handler, count
        case totalNs = "total_ns"
        case maxNs = "max_ns"
        case meanNs = "mean_ns"
        // task
        case taskKind = "task_kind"
        case taskId = "task_id"
        case taskName = "task_name"
        case beginTNs = "begin_t_ns"
        case endTNs = "end_t_ns"
        case durationNs = "duration_ns"
        case expired, ended
        // service
        case service
        case startTNs = "start_t_ns"
        case readyNs = "ready_ns"
        case runningNs = "running_ns"
        case shutdownTNs = "shutdown_t_ns"
        case shutdownNs = "shutdown_ns"
        case stopped, error, cancelled
        // finding
        case rule, severity, message
        case eventIndex = "event_index"
        case tNs = "t_ns"
        case scene
        case measuredNs = "measured_ns"
        case budgetNs = "budget_ns"
        // error (and service: the error it threw)
        case errorKind = "error_kind"
    }
}
