// Apple platforms only: the unified log, under lifetrace's own subsystem.
#if canImport(os)
public import LifetraceAnalysis
import os

/// Writes each finding to the unified log, subsystem `lifetrace`, category `live-check`, at the error level
/// (Console, `log stream --predicate 'subsystem == "lifetrace"'`).
public struct UnifiedLogReporter: LiveCheckReporter {
    private let logger = Logger(subsystem: "lifetrace", category: "live-check")

    /// Writes findings to the unified log.
    public init() {}

    public func report(_ finding: Finding) {
        let line = finding.liveCheckLine
        logger.error("\(line, privacy: .public)")
    }
}
#endif
