#if canImport(XCTest)
public import LifetraceAnalysis
import LifetraceLiveCheck
public import LifetraceRecorder
import XCTest

/// Checks the lifecycle `recorder` records while `body` runs, and fails the running XCTest test once per finding
/// (`XCTFail`), with the rule, its message and the finding as `lifetrace check` prints it; the checker is drained
/// first. In a release build the live check is compiled out and the helper only runs `body`.
public func XCTWithLiveCheck<R>(
    recorder: Recorder, configuration: AnalysisConfiguration = .defaults,
    file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> R
) rethrows -> R {
    let collector = FindingList()
    let session = LiveCheck.start(recorder: recorder, reporter: collector, configuration: configuration)
    defer {
        session?.stop()
        for finding in collector.findings { XCTFail(collector.failureMessage(finding), file: file, line: line) }
    }
    return try body()
}
#endif
