#if canImport(XCTest)
import XCTest

/// Fails the test if `trace` has lifecycle errors, listing each as `lifetrace check` prints it: the one call
/// an XCTest test makes (a UI test after `app.terminate()`).
public func XCTAssertNoLifecycleErrors(_ trace: LifecycleTrace, file: StaticString = #filePath, line: UInt = #line) {
    guard !trace.errors.isEmpty else { return }
    XCTFail(trace.noErrorsFailureMessage, file: file, line: line)
}
#endif
