@testable import LifetraceReport
import LifetraceSummary
import Testing

/// `compare`'s summary line: the traces of each side, counted as the JSON counts them.
@Suite struct ComparisonOutputTests {
    /// The observations of `count` traces, the first `truncated` of them read only to their last whole frame.
    static func traces(_ count: Int, truncated: Int = 0) -> SummaryObservations {
        var observations = SummaryObservations()
        for number in 0..<count {
            var columns = TraceColumns()
            columns.truncated = number < truncated
            observations.add(SummaryRow(trace: "t\(number)", run: .init(), .trace(columns)))
        }
        observations.finish()
        return observations
    }

    /// The summary line up to the rule it applies.
    static func traces(in comparison: BuildComparison) -> Substring {
        ComparisonOutput.summary(comparison).split(separator: ";")[0]
    }

    @Test func oneBaseTraceIsSingular() {
        #expect(Self.traces(in: BuildComparison(base: Self.traces(1), new: Self.traces(1))) == "no regression: 1 base trace, 1 new")
        #expect(Self.traces(in: BuildComparison(base: Self.traces(2), new: Self.traces(1))) == "no regression: 2 base traces, 1 new")
    }
}
