import LifetraceAnalysis
import LifetraceConcurrency
import LifetraceLiveCheck

/// Passes each finding on to another reporter and counts them, for the demo's exit status.
final class CountingReporter: LiveCheckReporter {
    private let next: any LiveCheckReporter
    private let counted = LockedValue(0)

    init(_ next: any LiveCheckReporter) {
        self.next = next
    }

    var count: Int { counted.withLock { $0 } }

    func report(_ finding: Finding) {
        counted.withLock { $0 += 1 }
        next.report(finding)
    }

    func eventsDropped(total: Int) {
        next.eventsDropped(total: total)
    }
}
