// What a live check needs of the analyzer beside the per-event loop: each finding told as it is collected, and
// the time told with no event, so that a deadline is found while it runs out (AnalysisCore+Deadlines.swift).

extension TraceAnalyzer {
    /// Told each finding the moment the analysis collects it — as the event that proves it is read, as
    /// ``advance(to:)`` finds a deadline passed, or at ``finish()`` — in the order of ``AnalysisResult/findings``,
    /// each once. The findings past ``keptFindingsPerRule`` of a rule are counted, not told.
    public var onFinding: ((Finding) -> Void)? {
        get { core.collector.onFinding }
        set { core.collector.onFinding = newValue }
    }

    /// Tells the analysis that the running process is still running at `t` (nanoseconds on the trace's clock,
    /// after the last event fed), with no event since: the deadlines that passed by then are found now rather
    /// than at the event that would prove them later — a handler written unfinished (`attrs.unfinished`) still
    /// running past its budget (LT050 for `didEnterBackground`), a launch that has not reached active past the
    /// launch budget, a background task running in the background past its budget (LT043, LT052) or left open past
    /// the grace after its expiration (LT042, LT044). Each is reported once: the handler's return, the activation,
    /// the task's end or its process's, when it comes, reports it no more. A live check calls it on a timer; an analysis of a file never needs it.
    public func advance(to t: Int64) {
        core.advance(to: t)
    }
}
