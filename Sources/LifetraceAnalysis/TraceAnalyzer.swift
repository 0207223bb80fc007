public import LifetraceCore
public import LifetraceFormat

/// The one-pass streaming analyzer: feed it a trace's events in order, then ask for the result.
///
/// Memory is constant in the number of events: state per scene, task and process, a few events of context,
/// and the findings themselves.
///
/// ```swift
/// let result = try TraceAnalyzer.analyze(path: "run.lifetrace", codec: .zstd)
/// for finding in result.findings { print(finding.rule.id, finding.message) }
/// ```
public final class TraceAnalyzer {
    /// The state; internal so that the extensions in other files reach it.
    var core: AnalysisCore
    /// The block single events are fed through.
    private var single = EventBlock()

    /// Per-process details and suspension intervals kept for the report; beyond that only totals, so memory
    /// stays constant however long the trace.
    public static let keptDetails = 1000

    /// Findings kept of each rule; the rest are counted (``AnalysisResult/omittedFindings``).
    public static let keptFindingsPerRule = 100

    /// The longest string a finding keeps (scene names, labels, messages): longer ones are cut, marked `…`.
    public static let keptStringLength = KeptName.limit

    /// How long an idle background process must show no sign of life to be taken as suspended, without
    /// heartbeats: iOS suspends an app seconds after `didEnterBackground` returns (Apple, “Extending your app’s background execution time”).
    public static let suspensionThreshold: Int64 = 10_000_000_000

    /// Starts an analysis of the trace `file` with `header`.
    public init(
        file: String, header: TraceHeader?, configuration: AnalysisConfiguration = .defaults,
        models: [LifecycleModel] = LifecycleModel.builtIn
    ) {
        core = AnalysisCore(
            file: file, header: header, configuration: configuration, models: models, observer: nil)
    }

    /// Starts an analysis of the trace `file` with `header` that tells `observer` what it reads and computes,
    /// as it goes (``TimelineObserver``).
    package init(
        file: String, header: TraceHeader?, configuration: AnalysisConfiguration = .defaults,
        models: [LifecycleModel] = LifecycleModel.builtIn, observer: any TimelineObserver
    ) {
        core = AnalysisCore(
            file: file, header: header, configuration: configuration, models: models, observer: observer)
    }

    /// Starts an analysis with models compiled before for the same scene manifest and configuration (many small
    /// traces: compiling is most of the cost of one).
    init(file: String, header: TraceHeader?, models: [LifecycleModel], compiled: ModelEngine.Blueprint) {
        core = AnalysisCore(
            file: file, header: header, configuration: compiled.configuration, models: models,
            observer: nil, compiled: compiled)
    }

    /// Reads and analyzes the trace at `path`.
    ///
    /// - Parameter codec: how data frames are decompressed: ``FrameCodec/stored`` (the default) reads what a
    ///   recorder writes, in Swift alone; a trace whose frames libzstd compressed then fails with an error
    ///   naming the frame. The command line passes `.zstd` (`LifetraceZstd`), which reads both.
    public static func analyze(
        path: String, codec: FrameCodec = .stored, configuration: AnalysisConfiguration = .defaults,
        models: [LifecycleModel] = LifecycleModel.builtIn
    ) throws(TraceError) -> AnalysisResult {
        try analyze(
            try TraceReader(path: path, codec: codec), file: path, configuration: configuration, models: models)
    }

    /// Analyzes what `reader` reads, the trace named `file` in findings; `observer`, if given, is told as it goes.
    package static func analyze(
        _ reader: TraceReader, file: String, configuration: AnalysisConfiguration = .defaults,
        models: [LifecycleModel] = LifecycleModel.builtIn, observer: (any TimelineObserver)? = nil
    ) throws(TraceError) -> AnalysisResult {
        let analyzer =
            observer.map {
                TraceAnalyzer(
                    file: file, header: reader.header, configuration: configuration, models: models, observer: $0)
            }
            ?? TraceAnalyzer(file: file, header: reader.header, configuration: configuration, models: models)
        do {
            try reader.forEachBlock { analyzer.consume($0) }
        } catch {
            // The body cannot fail: what the reading throws is the reader's own error.
            throw error as! TraceError
        }
        var result = analyzer.finish()
        result.inputWarnings = reader.warnings
        return result
    }

    /// Feeds the next event.
    public func consume(_ event: borrowing LifecycleEvent) {
        single.removeAll()
        single.append(event)
        core.consume(single)
    }

    /// Feeds the next events, a block at a time: the fast way, with no event materialised unless a finding
    /// or the timeline needs it.
    package func consume(_ block: borrowing EventBlock) {
        core.consume(block)
    }

    /// Ends the analysis: closes open processes and returns everything found.
    public func finish() -> AnalysisResult {
        core.finish()
    }

    /// Starts keeping a log of background tasks as they end (or are closed open), for ``takeTaskLog()``.
    package func logTasks() {
        core.logTasks()
    }

    /// The tasks that ended since the last call, oldest first; empty unless ``logTasks()`` was called.
    package func takeTaskLog() -> [TaskTracker.Life] {
        core.takeTaskLog()
    }

    /// Starts keeping a log of the services of a service process as the process ends, for ``takeServiceLog()``.
    package func logServices() {
        core.logServices()
    }

    /// The services of the processes that ended since the last call, in order; empty unless ``logServices()``
    /// was called and the trace follows the service lifecycle.
    package func takeServiceLog() -> [ServiceLife] {
        core.takeServiceLog()
    }
}
