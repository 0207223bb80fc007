public import LifetraceCore
public import LifetraceFormat

/// Reads traces into summary rows: JSON Lines a warehouse loads as one table (DuckDB, Spark, BigQuery,
/// ClickHouse), one row per trace, per process, per handler kind, per background task, per service of a service
/// process (its start-up and shutdown durations) and per finding, and an
/// error row for a trace that cannot be read. `Schemas/summary.schema.json` names, types and documents every
/// column; ``schemaVersion`` changes when a column changes meaning or goes away (new columns do not change it).
///
/// Every row starts with the same columns (the schema version, the row's kind, the trace as given, and what
/// its header says of the run: app, version, build, OS, device, test), so that any row can be grouped by them
/// without a join. A summarizer is reused from trace to trace; it keeps nothing of one trace for the next.
public struct TraceSummarizer {
    /// The version of the row schema, the `summary_version` of every row.
    public static let schemaVersion = 1

    /// The configuration for a trace with a given header (a `lifetrace.json` may depend on the style).
    public typealias ConfigurationSource = (TraceHeader?) throws(TraceError) -> AnalysisConfiguration

    private let models: [LifecycleModel]
    private let configuration: ConfigurationSource
    private let codec: FrameCodec
    /// The models compiled for each scene manifest, lifecycle and configuration met so far (a handful at most).
    private var compiled: [ModelEngine.Blueprint] = []
    /// Calls, total and longest duration of each handler kind, by tag; reset per trace.
    private var handlers = [HandlerTotals](repeating: HandlerTotals(), count: 256)

    private struct HandlerTotals {
        var count: Int64 = 0
        var total: Int64 = 0
        var longest: Int64 = 0
    }

    /// A summarizer checking against `models`, with the configuration `configuration` gives each trace,
    /// decompressing data frames with `codec` (``FrameCodec/stored`` reads a recorder's traces in Swift alone;
    /// the command line passes `.zstd`).
    public init(models: [LifecycleModel] = LifecycleModel.builtIn, codec: FrameCodec = .stored,
                configuration: @escaping ConfigurationSource = { _ in .defaults }) {
        self.models = models
        self.codec = codec
        self.configuration = configuration
    }

    /// Appends the rows of the trace at `path` to `output`, one JSON object per line (see
    /// ``summarize(path:_:)``).
    ///
    /// - Returns: whether the trace was read to its end.
    @discardableResult
    public mutating func summarize(path: String, into output: inout [UInt8]) -> Bool {
        summarize(path: path) { row in
            output.appendJSONValue(row)
            output.append(UInt8(ascii: "\n"))
        }
    }

    /// Passes the rows of the trace at `path` to `emit`, in order; a trace that cannot be read gives an error
    /// row alone.
    ///
    /// - Returns: whether the trace was read to its end.
    @discardableResult
    public mutating func summarize(path: String, _ emit: (JSONValue) -> Void) -> Bool {
        withoutActuallyEscaping(emit) { emit in
            var rows = InMemoryRows(emit: emit)
            return summarize(path: path, into: &rows)
        }
    }

    /// Passes the rows of the trace at `path` to `rows`: a trace that cannot be read gives an error row alone.
    /// The task rows come as the tasks end and the service rows as their processes end, while the trace is read
    /// (``SummaryRows/deferredRow(_:)``), so that
    /// nothing the summarizer keeps grows with the trace.
    ///
    /// - Returns: whether the trace was read to its end.
    @discardableResult
    public mutating func summarize(path: String, into rows: inout some SummaryRows) -> Bool {
        var header: TraceHeader?
        do throws(TraceError) {
            let reader = try TraceReader(path: path, codec: codec)
            header = reader.header
            try summarize(reader, path: path, into: &rows)
            return true
        } catch {
            rows.dropDeferredRows()
            unreadable(path: path, header: header, error, into: &rows)
            return false
        }
    }

    /// Gives the error row of the trace at `path`, which could not be read (or was not, for `error`'s reason).
    public func unreadable(path: String, header: TraceHeader? = nil, _ error: TraceError, into rows: inout some SummaryRows) {
        rows.row(row(.error, path, header, [
            ("error", .string(error.description)), ("error_kind", .string(Self.name(of: error.kind))),
        ]))
    }

    private mutating func summarize(_ reader: TraceReader, path: String, into rows: inout some SummaryRows) throws(TraceError) {
        let header = reader.header
        let configuration = try configuration(header)
        let blueprint: ModelEngine.Blueprint
        if let known = compiled.first(where: { $0.fits(header, configuration) }) {
            blueprint = known
        } else {
            blueprint = ModelEngine.Blueprint(models: models, manifest: header?.sceneManifest, lifecycle: header.followedLifecycle,
                                              configuration: configuration)
            if compiled.count < 16 { compiled.append(blueprint) }
        }
        let analyzer = TraceAnalyzer(file: path, header: header, models: models, compiled: blueprint)
        analyzer.logTasks()
        for index in handlers.indices where handlers[index].count > 0 { handlers[index] = HandlerTotals() }
        let followsServices = header?.lifecycle == .service
        // The services of the process being read.
        var serviceTimes = ServiceTimes()
        do {
            try reader.forEachBlock(decodingThreads: 0) { block in
                analyzer.consume(block)
                count(block)
                for task in analyzer.takeTaskLog() { rows.deferredRow(taskRow(task, path, header)) }
                if followsServices {
                    serviceTimes.consume(block) { rows.deferredRow(serviceRow($0, path, header)) }
                }
            }
        } catch {
            // The body cannot fail: what the reading throws is the reader's own error.
            throw error as! TraceError
        }
        var result = analyzer.finish()
        result.inputWarnings = reader.warnings
        for task in analyzer.takeTaskLog() { rows.deferredRow(taskRow(task, path, header)) }
        serviceTimes.finish { rows.deferredRow(serviceRow($0, path, header)) }
        rows.row(traceRow(result, path, header, reader))
        for (number, process) in result.processes.enumerated() {
            rows.row(processRow(process, number: number + 1, path, header))
        }
        for tag in handlers.indices where handlers[tag].count > 0 {
            let totals = handlers[tag]
            rows.row(row(.handler, path, header, [
                ("handler", .string(EventKind(rawValue: UInt8(tag))?.name ?? "unknown")), ("count", .int(totals.count)),
                ("total_ns", .int(totals.total)), ("max_ns", .int(totals.longest)), ("mean_ns", .int(totals.total / totals.count)),
            ]))
        }
        rows.placeDeferredRows()
        for finding in result.findings { rows.row(findingRow(finding, path, header)) }
    }

    /// Adds the handlers of `block` to the totals: each event with a duration, and each `handler.return` to the
    /// kind of the callback it names.
    private mutating func count(_ block: borrowing EventBlock) {
        for record in block.records where record.fields.contains(.dur) {
            var tag = Int(record.tag)
            if record.kind == .handlerReturn {
                guard let name = block.extras(of: record).flatMap({ block.string($0.name) }),
                      let kind = EventKind(name: name) else { continue }
                tag = Int(kind.rawValue)
            } else if record.kind.layer == .process {
                continue
            }
            handlers[tag].count += 1
            handlers[tag].total &+= record.dur
            handlers[tag].longest = max(handlers[tag].longest, record.dur)
        }
    }

    // MARK: - Rows

    /// The kinds of row.
    enum RowKind: String {
        case trace, process, handler, task, service, finding, error
    }

    /// The columns every row starts with, then `columns`.
    private func row(_ kind: RowKind, _ path: String, _ header: TraceHeader?, _ columns: [(key: String, value: JSONValue)]) -> JSONValue {
        func string(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        func headerString(_ key: TraceHeader.Key) -> JSONValue {
            guard let value = header?[key] else { return .null }
            switch value {
            case .string, .null: return value
            default: return .string(value.jsonText)
            }
        }
        var members: [(key: String, value: JSONValue)] = [
            ("summary_version", .int(Int64(Self.schemaVersion))), ("row", .string(kind.rawValue)), ("trace", .string(path)),
            ("app", string(header?.app)), ("app_version", headerString(.appVersion)),
            ("build", headerString(.build)), ("os_version", headerString(.osVersion)),
            ("device", headerString(.device)), ("test_name", headerString(.testName)),
            ("source", headerString(.source)),
        ]
        members += columns
        return .object(members)
    }

    private func traceRow(_ result: AnalysisResult, _ path: String, _ header: TraceHeader?, _ reader: TraceReader) -> JSONValue {
        row(.trace, path, header, [
            ("events", .int(Int64(result.eventCount))),
            ("span_ns", .int(result.span.map { $0.last &- $0.first } ?? 0)),
            ("processes", .int(Int64(result.processCount))),
            ("errors", .int(Int64(result.count(.error)))), ("warnings", .int(Int64(result.count(.warning)))),
            ("findings_omitted", .int(Int64(result.omittedFindings.reduce(0) { $0 + $1.count }))),
        ] + Self.times(result.totals) + [
            ("suspensions", .int(Int64(result.suspensionCount))),
            ("truncated", .bool(reader.statistics.truncated)),
            ("input_warnings", .int(Int64(result.inputWarnings.count))),
        ])
    }

    private func processRow(_ process: ProcessSummary, number: Int, _ path: String, _ header: TraceHeader?) -> JSONValue {
        row(.process, path, header, [
            ("process", .int(Int64(number))), ("launch_reason", process.launchReason.map(JSONValue.string) ?? .null),
            ("launch_t_ns", .int(process.launchT)),
            ("launch_ns", process.firstActiveT.map { .int($0 &- process.launchT) } ?? .null),
            ("end", .string(process.end.rawValue)),
        ] + Self.times(process.times))
    }

    private func taskRow(_ task: TaskTracker.Life, _ path: String, _ header: TraceHeader?) -> JSONValue {
        let kind = switch task.kind {
        case .application: "background-task"
        case .refresh: "refresh-task"
        case .processing: "processing-task"
        }
        return row(.task, path, header, [
            ("task_kind", .string(kind)), ("task_id", .int(task.id)), ("task_name", task.name.map(JSONValue.string) ?? .null),
            ("begin_t_ns", .int(task.begin)), ("end_t_ns", task.end.map(JSONValue.int) ?? .null),
            ("duration_ns", task.end.map { .int($0 &- task.begin) } ?? .null),
            ("expired", .bool(task.expired)), ("ended", .bool(task.end != nil)),
        ])
    }

    private func serviceRow(_ service: ServiceTimes.Service, _ path: String, _ header: TraceHeader?) -> JSONValue {
        func int(_ value: Int64?) -> JSONValue { value.map(JSONValue.int) ?? .null }
        return row(.service, path, header, [
            ("process", .int(Int64(service.process))), ("service", .string(service.name)),
            ("start_t_ns", int(service.started)), ("ready_ns", int(service.readyDuration)),
            ("shutdown_t_ns", int(service.shutdownAsked)), ("shutdown_ns", int(service.shutdownDuration)),
            ("stopped", .bool(service.stopped != nil)), ("error", service.error.map(JSONValue.string) ?? .null),
            ("cancelled", .bool(service.cancelled)),
        ])
    }

    private func findingRow(_ finding: Finding, _ path: String, _ header: TraceHeader?) -> JSONValue {
        row(.finding, path, header, [
            ("rule", .string(finding.rule.id.rawValue)), ("severity", .string(finding.severity.rawValue)),
            ("message", .string(finding.message)), ("event_index", .int(Int64(finding.eventIndex))),
            ("t_ns", .int(finding.t)), ("scene", finding.scene.map(JSONValue.string) ?? .null),
            ("measured_ns", finding.measured.map(JSONValue.int) ?? .null),
            ("budget_ns", finding.budget.map(JSONValue.int) ?? .null),
        ])
    }

    private static func times(_ times: StateTimes) -> [(key: String, value: JSONValue)] {
        [("active_ns", .int(times.active)), ("inactive_ns", .int(times.inactive)),
         ("background_ns", .int(times.background)), ("suspended_ns", .int(times.suspended))]
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

/// Where a summarizer puts the rows of a trace: the trace's rows in order, and its task and service rows, which it
/// finds while the trace is read but which come after its handler rows. An implementation that keeps the task rows
/// where memory does not grow (a file) makes a summary whose memory does not grow with the trace; one for which
/// the order does not matter takes them as they come.
public protocol SummaryRows {
    /// The next row of the trace.
    mutating func row(_ row: JSONValue)
    /// A task or service row, found while the trace is read: it goes where ``placeDeferredRows()`` is called.
    mutating func deferredRow(_ row: JSONValue)
    /// The task and service rows given so far go here, in the order they came.
    mutating func placeDeferredRows()
    /// The trace could not be read to its end: the task rows given so far are not wanted (its error row stands
    /// for it).
    mutating func dropDeferredRows()
}

/// Rows to a function, in order, the task rows held in memory until their place.
struct InMemoryRows: SummaryRows {
    let emit: (JSONValue) -> Void
    private var deferred: [JSONValue] = []

    init(emit: @escaping (JSONValue) -> Void) {
        self.emit = emit
    }

    mutating func row(_ row: JSONValue) { emit(row) }
    mutating func deferredRow(_ row: JSONValue) { deferred.append(row) }

    mutating func placeDeferredRows() {
        for row in deferred { emit(row) }
        deferred.removeAll()
    }

    mutating func dropDeferredRows() { deferred.removeAll() }
}
