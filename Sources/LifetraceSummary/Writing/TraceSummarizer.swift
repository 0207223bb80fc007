public import LifetraceAnalysis
import LifetraceChecking
public import LifetraceCore
public import LifetraceFormat

/// Reads traces into summary rows (``SummaryRow``): one table a warehouse loads (DuckDB, Spark, BigQuery,
/// ClickHouse), one row per trace, per process, per handler kind, per background task, per service of a service
/// process (its start-up and shutdown durations) and per finding, and an error row for a trace that cannot be read.
///
/// Every row starts with the same columns (the schema version, the row's kind, the trace as given, and what its
/// header says of the run: app, version, build, OS, device, test), so that any row can be grouped by them without
/// a join. A summarizer is reused from trace to trace; it keeps nothing of one trace for the next.
public struct TraceSummarizer {
    /// The configuration for a trace with a given header (a `lifetrace.json` may depend on the style).
    public typealias ConfigurationSource = (TraceHeader?) throws(TraceError) -> AnalysisConfiguration

    private var measurer: TraceMeasurer

    /// A summarizer checking against `models`, with the configuration `configuration` gives each trace,
    /// decompressing data frames with `codec` (``FrameCodec/stored`` reads a recorder's traces in Swift alone;
    /// the command line passes `.zstd`).
    public init(
        models: [LifecycleModel] = LifecycleModel.builtIn, codec: FrameCodec = .stored,
        configuration: @escaping ConfigurationSource = { _ in .defaults }
    ) {
        measurer = TraceMeasurer(models: models, codec: codec, configuration: configuration)
    }

    /// Appends the rows of the trace at `path` to `output`, one JSON object per line (see
    /// ``summarize(path:_:)``).
    ///
    /// - Returns: whether the trace was read to its end.
    @discardableResult
    public mutating func summarize(path: String, into output: inout [UInt8]) -> Bool {
        summarize(path: path) { $0.appendLine(to: &output) }
    }

    /// Passes the rows of the trace at `path` to `emit`, in order; a trace that cannot be read gives an error
    /// row alone.
    ///
    /// - Returns: whether the trace was read to its end.
    @discardableResult
    public mutating func summarize(path: String, _ emit: (SummaryRow) -> Void) -> Bool {
        withoutActuallyEscaping(emit) { emit in
            var rows = InMemoryRows(emit: emit)
            return summarize(path: path, into: &rows)
        }
    }

    /// Passes the rows of the trace at `path` to `rows`: a trace that cannot be read gives an error row alone.
    /// The task rows come as the tasks end and the service rows as their processes end, while the trace is read
    /// (``SummaryRows/deferredRow(_:)``), so that nothing the summarizer keeps grows with the trace.
    ///
    /// - Returns: whether the trace was read to its end.
    @discardableResult
    public mutating func summarize(path: String, into rows: inout some SummaryRows) -> Bool {
        var header: TraceHeader?
        do throws(TraceError) {
            let reader = try measurer.open(path: path)
            header = reader.header
            let run = Self.run(header)
            let measured = try measurer.measure(reader, path: path) { found in
                switch found {
                case let .task(task): rows.deferredRow(Self.taskRow(task, path, run))
                case let .service(service): rows.deferredRow(Self.serviceRow(service, path, run))
                }
            }
            rows.row(Self.traceRow(measured, path, run))
            for (number, process) in measured.result.processes.enumerated() {
                rows.row(Self.processRow(process, number: number + 1, path, run))
            }
            for handler in measured.handlers {
                rows.row(SummaryRow(trace: path, run: run, .handler(Self.handlerColumns(handler))))
            }
            rows.placeDeferredRows()
            for finding in measured.result.findings { rows.row(Self.findingRow(finding, path, run)) }
            return true
        } catch {
            rows.dropDeferredRows()
            unreadable(path: path, header: header, error, into: &rows)
            return false
        }
    }

    /// Gives the error row of the trace at `path`, which could not be read (or was not, for `error`'s reason).
    public func unreadable(
        path: String, header: TraceHeader? = nil, _ error: TraceError, into rows: inout some SummaryRows
    ) {
        rows.row(
            SummaryRow(
                trace: path, run: Self.run(header),
                .error(ErrorColumns(error: error.description, kind: Self.name(of: error.kind)))))
    }

    // MARK: - Rows

    /// What the header says of the run; a value that is not a string is given as its JSON text.
    static func run(_ header: TraceHeader?) -> SummaryRow.Run {
        func string(_ key: TraceHeader.Key) -> String? {
            switch header?[key] {
            case nil, .null?: nil
            case let .string(value)?: value
            case let value?: value.jsonText
            }
        }
        return SummaryRow.Run(
            app: header?.app, appVersion: string(.appVersion), build: string(.build),
            osVersion: string(.osVersion), device: string(.device), testName: string(.testName),
            source: string(.source))
    }

    private static func traceRow(_ measured: TraceMeasurer.Measured, _ path: String, _ run: SummaryRow.Run)
        -> SummaryRow
    {
        let result = measured.result
        var columns = TraceColumns()
        columns.events = Int64(result.eventCount)
        columns.span = result.span.map { $0.last.subtractingSaturated($0.first) } ?? 0
        columns.processes = Int64(result.processCount)
        columns.errors = Int64(result.count(.error))
        columns.warnings = Int64(result.count(.warning))
        columns.findingsOmitted = Int64(result.omittedFindings.reduce(0) { $0 + $1.count })
        columns.times = times(result.totals)
        columns.suspensions = Int64(result.suspensionCount)
        columns.truncated = measured.truncated
        columns.inputWarnings = Int64(result.inputWarnings.count)
        return SummaryRow(trace: path, run: run, .trace(columns))
    }

    private static func processRow(_ process: ProcessSummary, number: Int, _ path: String, _ run: SummaryRow.Run)
        -> SummaryRow
    {
        var columns = ProcessColumns()
        columns.process = Int64(number)
        columns.launchReason = process.launchReason
        columns.launchT = process.launchT
        columns.launch = process.firstActiveT.map { $0.subtractingSaturated(process.launchT) }
        columns.end = process.end.rawValue
        columns.times = times(process.times)
        return SummaryRow(trace: path, run: run, .process(columns))
    }

    private static func handlerColumns(_ handler: TraceMeasurer.HandlerTotals) -> HandlerColumns {
        var columns = HandlerColumns()
        (columns.handler, columns.count, columns.total) = (handler.name, handler.count, handler.total)
        (columns.longest, columns.mean) = (handler.longest, handler.mean)
        return columns
    }

    private static func taskRow(_ task: TraceMeasurer.Task, _ path: String, _ run: SummaryRow.Run) -> SummaryRow {
        var columns = TaskColumns()
        (columns.kind, columns.id, columns.name) = (task.kind, task.id, task.name)
        (columns.begin, columns.end, columns.duration) = (
            task.begin, task.end, task.end.map { $0.subtractingSaturated(task.begin) }
        )
        (columns.expired, columns.ended) = (task.expired, task.end != nil)
        return SummaryRow(trace: path, run: run, .task(columns))
    }

    private static func serviceRow(_ service: ServiceLife, _ path: String, _ run: SummaryRow.Run) -> SummaryRow {
        var columns = ServiceColumns()
        (columns.process, columns.service) = (Int64(service.process), service.name)
        (columns.start, columns.ready, columns.running) = (
            service.started, service.readyDuration, service.runningDuration
        )
        (columns.shutdownT, columns.shutdown) = (service.shutdownAsked, service.shutdownDuration)
        (columns.stopped, columns.error, columns.cancelled) = (service.stopped != nil, service.error, service.cancelled)
        return SummaryRow(trace: path, run: run, .service(columns))
    }

    private static func findingRow(_ finding: Finding, _ path: String, _ run: SummaryRow.Run) -> SummaryRow {
        var columns = FindingColumns()
        (columns.rule, columns.severity, columns.message) = (
            finding.rule.id.rawValue, finding.severity.rawValue, finding.message
        )
        (columns.eventIndex, columns.t, columns.scene) = (Int64(finding.eventIndex), finding.t, finding.scene)
        (columns.measured, columns.budget) = (finding.measured, finding.budget)
        return SummaryRow(trace: path, run: run, .finding(columns))
    }

    private static func times(_ times: StateTimes) -> StateColumns {
        StateColumns(
            active: times.active, inactive: times.inactive, background: times.background, suspended: times.suspended)
    }

    private static func name(of kind: TraceError.Kind) -> String {
        switch kind {
        case .io: "io"
        case .unrecognized: "unrecognized"
        case .unsupportedVersion: "unsupported-version"
        case .malformed: "malformed"
        case .limitExceeded: "limit-exceeded"
        }
    }
}
