import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat
import LifetraceSummary
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// Summary rows of the sample traces, against what their lines say.
@Suite struct TraceSummarizerTests {
    static func rows(_ path: String) -> [JSONValue] {
        var summarizer = TraceSummarizer(codec: .zstd)
        var bytes: [UInt8] = []
        summarizer.summarize(path: path, into: &bytes)
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map {
            try! JSONValue(parsing: String($0), file: "-")
        }
    }

    /// seed-cold-launch: one process launched by the user, first active at 77.5 ms (didBecomeActive's t); two
    /// foregrounds (willEnterForeground 2.9 ms and 3.3 ms: total 6.2, mean 3.1, longest 3.3), one
    /// didEnterBackground of 182 ms; no task, no finding.
    @Test func theColdLaunchSampleSummarizesAsItsLinesSay() throws {
        let rows = Self.rows(PackagePaths.path("SampleTraces/seed-cold-launch.lifetrace"))
        #expect(rows.map { $0["row"]?.stringValue } == ["trace", "process"] + Array(repeating: "handler", count: 8))
        #expect(
            rows.allSatisfy { $0["summary_version"] == 1 && $0["app"] == "com.example.notes" && $0["build"] == .null })
        let trace = rows[0]
        #expect(trace["events"] == 12 && trace["processes"] == 1 && trace["errors"] == 0)
        #expect(trace["span_ns"] == 61_244_100_000)
        let process = rows[1]
        #expect(process["launch_reason"] == "user" && process["launch_ns"] == 77_500_000)
        let foreground = try #require(rows.first { $0["handler"] == "scene.willEnterForeground" })
        #expect(
            foreground["count"] == 2 && foreground["total_ns"] == 6_200_000 && foreground["max_ns"] == 3_300_000
                && foreground["mean_ns"] == 3_100_000)
        let background = try #require(rows.first { $0["handler"] == "scene.didEnterBackground" })
        #expect(background["count"] == 1 && background["mean_ns"] == 182_000_000)
    }

    /// The leaked-task fault sample: task 1 begins at 24.341 s, expires at 51.130 s and is never ended, so its row
    /// has no end, says it expired, and the finding row names LT042.
    @Test func aLeakedTaskHasNoEndAndAFinding() throws {
        let rows = Self.rows(PackagePaths.path("SampleTraces/fault-leaked-background-task.lifetrace"))
        let leaked = try #require(rows.first { $0["row"] == "task" && $0["ended"] == false })
        #expect(
            leaked["end_t_ns"] == .null && leaked["duration_ns"] == .null && leaked["task_kind"] == "background-task")
        #expect(leaked["task_id"] == 1 && leaked["begin_t_ns"] == 24_341_495_543 && leaked["expired"] == true)
        #expect(rows.contains { $0["row"] == "finding" && $0["rule"] == "LT042" })
    }

    @Test func anUnreadableTraceIsAnErrorRow() {
        let directory = TemporaryDirectory()
        let path = directory.write("broken.lifetrace", Array("not a trace at all\n".utf8))
        let rows = Self.rows(path)
        #expect(rows.count == 1)
        #expect(rows[0]["row"] == "error" && rows[0]["error_kind"] == "unrecognized")
        #expect(rows[0]["error"]?.stringValue?.hasPrefix(path) == true)
    }
}
