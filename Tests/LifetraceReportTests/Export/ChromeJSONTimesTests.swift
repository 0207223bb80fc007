import Foundation
import LifetraceCore
import LifetraceFormat
import LifetraceTestSupport
import Testing

@testable import LifetraceReport

/// Chrome JSON as a viewer reads it: times parsed into doubles, then into nanoseconds. Slices that touch or
/// nest in the trace must still touch or nest after that rounding, however long the trace.
@Suite struct ChromeJSONTimesTests {
    let directory = TemporaryDirectory()

    /// An app-delegate app that goes to the background and back every 2.83 hours for `days` days, each time at
    /// an odd nanosecond: its state slices touch end to start, its callbacks nest in nothing.
    func longTrace(days: Int64) throws -> String {
        var lines = [
            #"{"lifetrace":1,"clock":"continuous","app":"com.example.long","scene_manifest":false}"#,
            #"{"t":0,"ev":"process.launch","reason":"user","pid":7}"#,
            #"{"t":1000,"ev":"app.didFinishLaunching","dur":1234567}"#,
            #"{"t":2000000,"ev":"app.didBecomeActive","dur":777}"#,
        ]
        let step: Int64 = 10_187_654_321_123  // 2.83 h and an odd number of nanoseconds
        var t: Int64 = 3_000_000
        let end = days * 86_400_000_000_000
        while t < end {
            lines.append(#"{"t":\#(t),"ev":"app.willResignActive","dur":1111}"#)
            lines.append(#"{"t":\#(t + 3_333),"ev":"app.didEnterBackground","dur":4444444}"#)
            lines.append(#"{"t":\#(t + step / 2 + 7),"ev":"app.willEnterForeground","dur":5555}"#)
            lines.append(#"{"t":\#(t + step / 2 + 7 + 66_666),"ev":"app.didBecomeActive","dur":9}"#)
            t += step
        }
        let path = directory.file("long-\(days).jsonl")
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The slices of an export as a viewer reads them: per track, (start, end) in nanoseconds from doubles.
    func viewerSlices(_ path: String) throws -> (slices: [String: [(Int64, Int64)]], precision: String?) {
        let sink = try FileSink(path: path + ".json")
        _ = try TraceExport.export(try TraceReader(path: path, codec: .stored), file: path, format: .chrome, to: sink)
        let data = try Data(contentsOf: URL(fileURLWithPath: path + ".json"))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var slices: [String: [(Int64, Int64)]] = [:]
        for case let event as [String: Any] in try #require(root["traceEvents"] as? [Any])
        where event["ph"] as? String == "X" {
            let ts = try #require((event["ts"] as? NSNumber)?.doubleValue)
            let dur = try #require((event["dur"] as? NSNumber)?.doubleValue)
            // As Perfetto's JSON importer does: microseconds (double) to integer nanoseconds, each on its own.
            let start = Int64((ts * 1000).rounded())
            let track = "\(event["pid"] ?? "")/\(event["tid"] ?? "")"
            slices[track, default: []].append((start, start + Int64((dur * 1000).rounded())))
        }
        let other = root["otherData"] as? [String: Any]
        return (slices, other?["time_precision"] as? String)
    }

    /// No two slices of a track cross after the viewer's rounding: each ends before the next begins, or
    /// contains it whole.
    func expectNoCrossing(_ slices: [String: [(Int64, Int64)]]) {
        for (track, list) in slices {
            var open: [Int64] = []  // ends of the enclosing slices
            for (start, end) in list.sorted(by: { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 > $1.1 }) {
                while let last = open.last, last <= start { open.removeLast() }
                if let last = open.last {
                    #expect(end <= last, "track \(track): [\(start), \(end)) crosses the end \(last)")
                }
                open.append(end)
            }
        }
    }

    @Test func a236DayTraceStillNestsAsAViewerReadsIt() throws {
        let (slices, precision) = try viewerSlices(try longTrace(days: 236))
        #expect(slices.values.map(\.count).reduce(0, +) > 6000)
        expectNoCrossing(slices)
        #expect(precision?.hasPrefix("µs") == true)
    }

    @Test func aShortTraceKeepsItsNanoseconds() throws {
        let (slices, precision) = try viewerSlices(try longTrace(days: 25))
        expectNoCrossing(slices)
        #expect(precision == "ns")
        // Within 26 days every time comes back to the nanosecond: the first callback ends at 1,235,567 ns.
        #expect(slices.values.contains { $0.contains { $0 == (1000, 1_235_567) } })
    }

    @Test func flooringIsToTheMicrosecondBelow() {
        #expect(ChromeJSONEncoder.flooredToMicroseconds(1_999) == 1_000)
        #expect(ChromeJSONEncoder.flooredToMicroseconds(-1) == -1_000)
        #expect(ChromeJSONEncoder.flooredToMicroseconds(3_000) == 3_000)
    }
}
