package import LifetraceAnalysis
package import LifetraceCore
package import LifetraceFormat

/// What summaries of a trace are made of, measured in one pass of the analyzer: its result, each handler kind's
/// calls and durations, and its tasks and services as they end. `LifetraceSummary`'s `TraceSummarizer` makes rows
/// of them. A measurer is reused from trace to trace; it keeps nothing of one trace for the next but the models
/// compiled for the headers it met.
package struct TraceMeasurer {
    /// The configuration for a trace with a given header (a `lifetrace.json` may depend on the style).
    package typealias ConfigurationSource = (TraceHeader?) throws(TraceError) -> AnalysisConfiguration

    /// What a trace gave once read to its end.
    package struct Measured {
        /// The analysis, with the reader's warnings.
        package var result: AnalysisResult
        /// Whether the trace was read only to its last whole frame.
        package var truncated: Bool
        /// The handler kinds called, in the order of their tags.
        package var handlers: [HandlerTotals]
    }

    /// One handler kind's calls, total and longest duration in a trace.
    package struct HandlerTotals {
        /// The callback's event name (`unknown` for a tag the vocabulary lacks).
        package var name = ""
        /// The calls' durations, summed without wrapping (their count is the calls').
        package var sum = DurationSum()
        package var longest: Int64 = 0
        /// The calls.
        package var count: Int64 { sum.count }
        /// Their total duration, held at `Int64.max` past what 64 bits hold.
        package var total: Int64 { sum.saturated }
        /// Their mean duration, exact whatever the total.
        package var mean: Int64 { sum.mean }
    }

    /// A background task's life: when it began and ended (`nil`: never, the process ended or was suspended with
    /// it open), and whether its time expired.
    package struct Task {
        /// `background-task`, `refresh-task` or `processing-task`.
        package var kind: String
        package var id: Int64
        package var name: String?
        package var begin: Int64
        package var end: Int64?
        package var expired: Bool
    }

    /// A task or a service, found while the trace is read.
    package enum Found {
        /// A task that ended, or was closed open.
        case task(Task)
        /// A service of a process that ended (``ServiceLife``).
        case service(ServiceLife)
    }

    private let configuration: ConfigurationSource
    private let codec: FrameCodec
    /// The models, compiled for each scene manifest, lifecycle and configuration met so far.
    private var compiled: CompiledModels
    /// Calls, total and longest duration of each handler kind, by tag; reset per trace.
    private var handlers = [HandlerTotals](repeating: HandlerTotals(), count: 256)

    /// A measurer checking against `models`, with the configuration `configuration` gives each trace,
    /// decompressing data frames with `codec`.
    package init(models: [LifecycleModel], codec: FrameCodec, configuration: @escaping ConfigurationSource) {
        compiled = CompiledModels(models)
        self.codec = codec
        self.configuration = configuration
    }

    /// Opens the trace at `path` with the measurer's codec: its header is read, its events are not yet.
    package func open(path: String) throws(TraceError) -> TraceReader {
        try TraceReader(path: path, codec: codec)
    }

    /// Reads the trace `reader` opened (the file `path`), passing its tasks and services to `found` as they end.
    package mutating func measure(_ reader: TraceReader, path: String, _ found: (Found) -> Void) throws(TraceError)
        -> Measured
    {
        let header = reader.header
        let configuration = try configuration(header)
        let analyzer = compiled.analyzer(file: path, header: header, configuration: configuration)
        analyzer.logTasks()
        analyzer.logServices()
        for index in handlers.indices where handlers[index].count > 0 { handlers[index] = HandlerTotals() }
        func pass(_ analyzer: TraceAnalyzer) {
            for task in analyzer.takeTaskLog() { found(.task(Self.task(task))) }
            for service in analyzer.takeServiceLog() { found(.service(service)) }
        }
        do {
            try reader.forEachBlock(decodingThreads: 0) { block in
                analyzer.consume(block)
                count(block)
                pass(analyzer)
            }
        } catch {
            // The body cannot fail: what the reading throws is the reader's own error.
            throw error as! TraceError
        }
        var result = analyzer.finish()
        result.inputWarnings = reader.warnings
        pass(analyzer)
        var called: [HandlerTotals] = []
        for tag in handlers.indices where handlers[tag].count > 0 {
            called.append(handlers[tag])
            called[called.count - 1].name = EventKind(rawValue: UInt8(tag))?.name ?? "unknown"
        }
        return Measured(result: result, truncated: reader.statistics.truncated, handlers: called)
    }

    /// Adds the handlers of `block` to the totals: each event with a duration, and each `handler.return` to the
    /// kind of the callback it names.
    private mutating func count(_ block: borrowing EventBlock) {
        for record in block.records where record.fields.contains(.dur) {
            var tag = Int(record.tag)
            if record.kind == .handlerReturn {
                guard let name = block.extras(of: record).flatMap({ block.string($0.name) }),
                    let kind = EventKind(name: name)
                else { continue }
                tag = Int(kind.rawValue)
            } else if record.kind.layer == .process {
                continue
            }
            handlers[tag].sum.add(record.dur)
            handlers[tag].longest = max(handlers[tag].longest, record.dur)
        }
    }

    private static func task(_ life: TaskTracker.Life) -> Task {
        let kind =
            switch life.kind {
            case .application: "background-task"
            case .refresh: "refresh-task"
            case .processing: "processing-task"
            }
        return Task(kind: kind, id: life.id, name: life.name, begin: life.begin, end: life.end, expired: life.expired)
    }
}
