import LifetraceCore
import LifetraceFormat
import LifetraceSummary
import Testing

@testable import LifetraceReport

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
        #expect(
            Self.traces(in: BuildComparison(base: Self.traces(1), new: Self.traces(1)))
                == "no regression: 1 base trace, 1 new")
        #expect(
            Self.traces(in: BuildComparison(base: Self.traces(2), new: Self.traces(1)))
                == "no regression: 2 base traces, 1 new")
    }

    /// Truncated traces are counted per side, of that side's traces, in the text and Markdown as in the JSON.
    @Test func truncatedTracesAreCountedPerSideAsInTheJSON() {
        let comparison = BuildComparison(base: Self.traces(3), new: Self.traces(2, truncated: 1))
        let expected =
            "no regression: 3 base traces, 2 new (warning: truncated, read to their last whole frame: base 0 of 3, new 1 of 2)"
        #expect(Self.traces(in: comparison) == expected[...])
        #expect(ComparisonOutput.render(comparison, format: .markdown).contains("\n" + expected + ";"))
        let json = ComparisonOutput.json(comparison)
        #expect(
            json["traces"]?.jsonText == #"{"base":3,"new":2}"# && json["truncated"]?.jsonText == #"{"base":0,"new":1}"#)
        #expect(
            Self.traces(in: BuildComparison(base: Self.traces(1, truncated: 1), new: Self.traces(1, truncated: 1)))
                == "no regression: 1 base trace, 1 new (warning: truncated, read to their last whole frame: base 1 of 1, new 1 of 1)"
        )
        #expect(!ComparisonOutput.summary(BuildComparison(base: Self.traces(3), new: Self.traces(2))).contains("("))
    }
}
