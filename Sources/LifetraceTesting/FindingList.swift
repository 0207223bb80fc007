import LifetraceAnalysis
import LifetraceConcurrency
import LifetraceLiveCheck

/// A live check's reporter that keeps its findings, for a test helper to record as failures on the test's own
/// task once the checker is drained.
final class FindingList: LiveCheckReporter {
    private let kept = LockedValue<[Finding]>([])
    private let droppedTotal = LockedValue(0)

    var findings: [Finding] { kept.withLock { $0 } }

    func report(_ finding: Finding) {
        kept.withLock { $0.append(finding) }
    }

    func eventsDropped(total: Int) {
        droppedTotal.withLock { $0 = total }
    }

    /// The failure a finding is recorded as: the rule and message first, then the finding as `check` prints it.
    func failureMessage(_ finding: Finding) -> String {
        var message = "lifecycle rule \(finding.rule.id) broken: \(finding.message)\n\(finding.description)"
        let dropped = droppedTotal.withLock { $0 }
        if dropped > 0 { message += "\n(\(dropped) events were dropped by the live check: it may have missed more)" }
        return message
    }
}
