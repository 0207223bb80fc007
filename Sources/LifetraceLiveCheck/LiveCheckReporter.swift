public import LifetraceAnalysis
import LifetraceCore

/// Where a live check reports what it finds: each finding once, on the checker's own queue, the moment the
/// recorded events (or the time alone, for a deadline) prove it.
///
/// A reporter must return promptly: the checker reads no further event meanwhile.
public protocol LiveCheckReporter: Sendable {
    /// Reports `finding`, as `lifetrace check` would have found it in the trace.
    func report(_ finding: Finding)

    /// Events were lost to the check (its hand-off was full): `total` so far. The findings may miss what they showed.
    func eventsDropped(total: Int)
}

extension LiveCheckReporter {
    /// By default, drops are not reported (``LiveCheck/Session/droppedEventCount`` counts them).
    public func eventsDropped(total: Int) {}
}

/// Reports to each of several reporters, in order.
public struct CombinedReporter: LiveCheckReporter {
    /// The reporters, each told every finding.
    public let reporters: [any LiveCheckReporter]

    /// Reports to each of `reporters`, in order.
    public init(_ reporters: [any LiveCheckReporter]) {
        self.reporters = reporters
    }

    public func report(_ finding: Finding) {
        for reporter in reporters { reporter.report(finding) }
    }

    public func eventsDropped(total: Int) {
        for reporter in reporters { reporter.eventsDropped(total: total) }
    }
}

extension Finding {
    /// The finding in one line: the first line `lifetrace check` prints for it (the trace, the time, the event,
    /// the severity, rule and title), then its message.
    public var liveCheckLine: String {
        let first = description.prefix { $0 != "\n" }
        return "\(first) — \(PrintableText.escaped(message))"
    }
}
