#if canImport(Testing)
public import LifetraceRecorder
public import LifetraceAnalysis
import LifetraceConcurrency
import LifetraceLiveCheck
public import Testing

/// Checks the lifecycle `recorder` records while `body` runs, and records each finding as an issue of the running
/// test (Swift Testing's `Issue.record`), on the test's own task, with the rule, its message and the events that
/// led to it, as `lifetrace check` prints them: a test that drives the app through its lifecycle fails where it
/// broke a rule, with no trace to read afterwards.
///
/// The checker is drained before the issues are recorded, so every finding of the body's events is among them
/// (the deadlines passed by then included); the check stops when the helper returns. In a release build the live
/// check is compiled out and the helper only runs `body`.
///
/// ```swift
/// @Test func backgroundingIsLegal() throws {
///     try withLiveCheck(recorder: recorder) {
///         try app.enterBackground()
///     }
/// }
/// ```
public func withLiveCheck<R>(
    recorder: Recorder, configuration: AnalysisConfiguration = .defaults,
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> R
) rethrows -> R {
    let collector = FindingList()
    let session = LiveCheck.start(recorder: recorder, reporter: collector, configuration: configuration)
    defer {
        session?.stop()
        for finding in collector.findings {
            Issue.record(Comment(rawValue: collector.failureMessage(finding)), sourceLocation: sourceLocation)
        }
    }
    return try body()
}

/// ``withLiveCheck(recorder:configuration:sourceLocation:_:)`` for a body that awaits.
public func withLiveCheck<R>(
    recorder: Recorder, configuration: AnalysisConfiguration = .defaults,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> R
) async rethrows -> R {
    let collector = FindingList()
    let session = LiveCheck.start(recorder: recorder, reporter: collector, configuration: configuration)
    defer {
        session?.stop()
        for finding in collector.findings {
            Issue.record(Comment(rawValue: collector.failureMessage(finding)), sourceLocation: sourceLocation)
        }
    }
    return try await body()
}
#endif
