extension SummaryRow {
    /// The first duration or count of the row that is negative, which none can be (a time in a state, a launch,
    /// a handler's calls and times, a task's times, a service's readiness and shutdown, a trace's counts): the
    /// column's name and value; `nil` for a row whose numbers can be right.
    var impossibleValue: (column: CodingKeys, value: Int64)? {
        let values: [(CodingKeys, Int64?)]
        switch columns {
        case let .trace(c):
            values =
                [
                    (.events, c.events), (.spanNs, c.span), (.processes, c.processes), (.errors, c.errors),
                    (.warnings, c.warnings), (.findingsOmitted, c.findingsOmitted), (.suspensions, c.suspensions),
                    (.inputWarnings, c.inputWarnings),
                ] + Self.values(c.times)
        case let .process(c):
            values = [(.launchTNs, c.launchT), (.launchNs, c.launch)] + Self.values(c.times)
        case let .handler(c):
            values = [(.count, c.count), (.totalNs, c.total), (.maxNs, c.longest), (.meanNs, c.mean)]
        case let .task(c):
            values = [(.beginTNs, c.begin), (.endTNs, c.end), (.durationNs, c.duration)]
        case let .service(c):
            values = [
                (.startTNs, c.start), (.readyNs, c.ready), (.shutdownTNs, c.shutdownT), (.shutdownNs, c.shutdown),
            ]
        case .finding, .error, .other:
            values = []
        }
        for case let (column, value?) in values where value < 0 { return (column, value) }
        return nil
    }

    private static func values(_ times: StateColumns) -> [(CodingKeys, Int64?)] {
        [
            (.activeNs, times.active), (.inactiveNs, times.inactive), (.backgroundNs, times.background),
            (.suspendedNs, times.suspended),
        ]
    }

    /// Why the row cannot be right, in one line: `"duration_ns" is -5: no duration or count is negative`.
    var impossibleValueMessage: String? {
        impossibleValue.map { "\"\($0.column.stringValue)\" is \($0.value): no duration or count is negative" }
    }
}
