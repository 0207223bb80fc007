public import LifetraceAnalysis
public import LifetraceCore
public import LifetraceFormat

/// One trace as the reports show it: its analysis, and the ``Timeline`` drawn while that analysis ran (the analyzer
/// tells a ``TimelineRecorder`` what it reads and computes, in one pass).
public struct ReportedTrace: Sendable {
    /// The analysis: findings, times, processes.
    public var result: AnalysisResult
    /// What the trace looked like over time.
    public var timeline: Timeline

    /// A trace's `result` with its `timeline`.
    public init(result: AnalysisResult, timeline: Timeline) {
        self.result = result
        self.timeline = timeline
    }

    /// Reads and analyzes the trace at `path`, drawing its timeline on the way (what `lifetrace report` shows).
    ///
    /// - Parameters: as ``TraceAnalyzer/analyze(path:codec:configuration:models:)``'s.
    public static func analyze(
        path: String, codec: FrameCodec = .stored, configuration: AnalysisConfiguration = .defaults,
        models: [LifecycleModel] = LifecycleModel.builtIn
    ) throws(TraceError) -> ReportedTrace {
        let reader = try TraceReader(path: path, codec: codec)
        return try analyze { (observer) throws(TraceError) in
            try TraceAnalyzer.analyze(
                reader, file: path, configuration: configuration, models: models, observer: observer(configuration))
        }
    }

    /// Analyzes `events`, the trace `file` with `header`, one at a time as ``TraceAnalyzer/consume(_:)`` takes them,
    /// drawing its timeline on the way.
    public static func analyze(
        _ events: some Sequence<LifecycleEvent>, file: String, header: TraceHeader?,
        configuration: AnalysisConfiguration = .defaults, models: [LifecycleModel] = LifecycleModel.builtIn
    ) -> ReportedTrace {
        analyze { observer in
            let analyzer = TraceAnalyzer(
                file: file, header: header, configuration: configuration, models: models,
                observer: observer(configuration))
            for event in events { analyzer.consume(event) }
            return analyzer.finish()
        }
    }

    /// Runs `analysis`, one trace's analysis told to the observer it is given (made for that trace's
    /// configuration, whose budgets the task bars are drawn against), and draws the timeline of it.
    package static func analyze<Failure: Error>(
        _ analysis: (_ observer: (AnalysisConfiguration) -> any TimelineObserver) throws(Failure) -> AnalysisResult
    ) throws(Failure) -> ReportedTrace {
        var recorder: TimelineRecorder?
        let result = try analysis { configuration in
            let made = TimelineRecorder(configuration: configuration)
            recorder = made
            return made
        }
        let span = result.span
        let timeline = recorder?.finish(start: span?.first ?? 0, end: span?.last ?? 0) ?? Timeline()
        return ReportedTrace(result: result, timeline: timeline)
    }
}
