// Apple platforms only: Xcode's runtime issues. Xcode shows a fault written to the log of the subsystem
// `com.apple.runtime-issues` as a purple runtime issue, as it shows the Main Thread Checker's; the technique
// pointfreeco/swift-issue-reporting documents. Not run on an Apple platform here (docs/live-check.md).
#if canImport(os)
public import LifetraceAnalysis
import os

/// Shows each finding as an Xcode runtime issue: a purple warning in the issue navigator while the app runs
/// under Xcode, naming the rule, the callback and the command that explains the rule.
public struct RuntimeIssueReporter: LiveCheckReporter {
    private let log = OSLog(subsystem: "com.apple.runtime-issues", category: "lifetrace")

    /// Shows findings as Xcode runtime issues.
    public init() {}

    public func report(_ finding: Finding) {
        let message =
            "\(finding.rule.id) \(finding.eventName)\(finding.scene.map { " (scene \($0))" } ?? ""): "
            + "\(finding.message) — lifetrace explain \(finding.rule.id)"
        // A dso of the process's image: where Xcode looks for the issue's image (#dsohandle names this module's).
        os_log(.fault, dso: #dsohandle, log: log, "%{public}@", message)
    }
}
#endif
