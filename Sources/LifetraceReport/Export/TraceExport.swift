public import LifetraceAnalysis
public import LifetraceFormat

/// Exports a trace for the tools engineers zoom into long traces with, keeping every event: Perfetto's own
/// protobuf format (`.pftrace`), or Chrome's Trace Event Format (JSON), which Perfetto also opens.
///
/// The trace is read once and the export written while it is read, in memory that does not grow with the
/// trace's length. What goes where is ``TraceExporter``'s (tracks per process, slices, instants); how it is
/// spelled is the format's encoder's.
public enum TraceExport {
    /// The export formats.
    public enum Format: String, Sendable, CaseIterable {
        /// Perfetto's protobuf trace: smaller, exact nanoseconds, interned names; what Perfetto loads fastest.
        case perfetto
        /// Chrome's Trace Event Format (JSON): what every trace viewer opens.
        case chrome
    }

    /// The most lanes (tracks) slices that overlap without nesting take in one group of tracks: past it, a slice
    /// is drawn as an instant (``ExportSummary/unplacedSlices``).
    public static let maximumLanesPerTrack = SliceLanes.maximumLanes

    /// Reads the trace `reader` reads, analyzing it with `configuration` and `models`, and writes its export to
    /// `sink` as it goes. Returns what the export holds and the analysis (its warnings among it).
    ///
    /// The bytes are made on a thread of their own and written on another (``ExportOutput``) while the trace is read
    /// and analyzed on the caller's.
    ///
    /// - Parameter progress: Called on the caller's thread as each block of events starts, with the number of
    ///   events exported before it: what a progress line on a terminal shows.
    public static func export(
        _ reader: TraceReader, file: String, format: Format, to sink: any TraceSink,
        configuration: AnalysisConfiguration = .defaults,
        models: [LifecycleModel] = LifecycleModel.builtIn,
        progress: ((_ eventsExported: Int) -> Void)? = nil
    ) throws(TraceError)
        -> (summary: ExportSummary, result: AnalysisResult)
    {
        try export(
            reader, file: file, format: format, to: sink, configuration: configuration, models: models,
            callsPerBatch: EncodingThread.callsPerBatch, progress: progress)
    }

    /// ``export(_:file:format:to:configuration:models:progress:)``, its encoder called `callsPerBatch` calls at a
    /// time on a thread of its own, or directly on the caller's thread with `nil`: the same bytes either way.
    static func export(
        _ reader: TraceReader, file: String, format: Format, to sink: any TraceSink,
        configuration: AnalysisConfiguration = .defaults,
        models: [LifecycleModel] = LifecycleModel.builtIn, callsPerBatch: Int?,
        progress: ((Int) -> Void)? = nil
    ) throws(TraceError)
        -> (summary: ExportSummary, result: AnalysisResult)
    {
        // On threads, the bytes are written on one more: a file's writes overlap the encoding.
        let onThreads = callsPerBatch != nil
        switch format {
        case .perfetto:
            return try export(
                reader, file: file, to: PerfettoEncoder(sink: sink, writesOnThread: onThreads),
                configuration: configuration,
                models: models, callsPerBatch: callsPerBatch, progress: progress)
        case .chrome:
            return try export(
                reader, file: file, to: ChromeJSONEncoder(sink: sink, writesOnThread: onThreads),
                configuration: configuration,
                models: models, callsPerBatch: callsPerBatch, progress: progress)
        }
    }

    /// The export by `encoder`, specialized for its type.
    private static func export<Encoder: ExportEncoder>(
        _ reader: TraceReader, file: String, to encoder: Encoder, configuration: AnalysisConfiguration,
        models: [LifecycleModel], callsPerBatch: Int?, progress: ((Int) -> Void)?
    ) throws(TraceError) -> (summary: ExportSummary, result: AnalysisResult) {
        let called: any ExportEncoder =
            if let callsPerBatch { EncodingThread(encoder, callsPerBatch: callsPerBatch) } else { encoder }
        let exporter = TraceExporter(file: file, header: reader.header, encoder: called, progress: progress)
        let result = try TraceAnalyzer.analyze(
            reader, file: file, configuration: configuration, models: models,
            observer: exporter)
        // A trace read only to its last whole frame says so in the export too, not only on standard error.
        exporter.inputWarnings(result.inputWarnings, at: result.span?.last ?? 0)
        try exporter.finish()
        var summary = exporter.summary
        if let chrome = encoder as? ChromeJSONEncoder, chrome.reducedPrecision {
            summary.precisionNote = ChromeJSONEncoder.reducedPrecisionNote
        }
        return (summary, result)
    }
}
