import FuzzSupport
import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat
import LifetraceReport
import LifetraceSummary

/// Any bytes as a side of `lifetrace compare`: read as a summary file (a line that is not a summary row is an
/// error with its line, never skipped), and as a trace summarized into rows as `compare` summarizes one; either
/// way compared with itself and with a few runs, and rendered in every format. Never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCompare(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt8.self), count: size)
    var fromSummary = SummaryObservations()
    var number = 0
    var start = 0
    readLines: while start <= bytes.count {
        let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
        number += 1
        do {
            try fromSummary.add(
                line: UnsafeBufferPointer(rebasing: bytes[start..<end]), number: number, file: "fuzz.sum.jsonl")
        } catch {
            precondition(
                error.file == "fuzz.sum.jsonl" && error.position == .line(number),
                "an error that does not name the line: \(error)")
            break readLines
        }
        start = end + 1
    }
    fromSummary.finish()
    compare(fromSummary)

    let path = FuzzInput.file("lifetrace")
    FuzzInput.write(data, size, to: path)
    var summarizer = TraceSummarizer(codec: .zstd)
    var fromTrace = SummaryObservations()
    _ = summarizer.summarize(path: path) { (row: SummaryRow) in
        let json = row.json
        let read = try? SummaryRow(json: json)
        precondition(read == row, "the summarizer wrote a row compare does not read back as written: \(json.jsonText)")
        fromTrace.add(row)
    }
    fromTrace.finish()
    compare(fromTrace)
    return 0
}

/// A few runs to compare with: two traces of different durations and exits.
private let runs: SummaryObservations = {
    var observations = SummaryObservations()
    for (trace, active, mean, end) in [
        ("a", 5_000_000_000, 1_000_000, "clean-terminate"), ("b", 7_000_000_000, 3_000_000, "trace-ended"),
    ] {
        func row(_ kind: String, _ columns: [(key: String, value: JSONValue)]) -> SummaryRow {
            let json = JSONValue.object(
                [("summary_version", 1), ("row", .string(kind)), ("trace", .string(trace))] + columns)
            do { return try SummaryRow(json: json) } catch { preconditionFailure("not a summary row: \(error)") }
        }
        observations.add(row("trace", [("active_ns", .int(Int64(active))), ("truncated", false)]))
        observations.add(row("process", [("end", .string(end)), ("launch_ns", .int(Int64(mean)))]))
        observations.add(row("handler", [("handler", "scene.didEnterBackground"), ("mean_ns", .int(Int64(mean)))]))
    }
    observations.finish()
    return observations
}()

/// Compares `observations` with themselves and with ``runs`` both ways, and renders every comparison.
private func compare(_ observations: SummaryObservations) {
    for (base, new) in [(observations, observations), (runs, observations), (observations, runs)] {
        let comparison = BuildComparison(base: base, new: new)
        for format in ComparisonOutput.Format.allCases { _ = ComparisonOutput.render(comparison, format: format) }
    }
}

/// The program's entry, which SwiftPM names after the target.
@_cdecl("FuzzCompare_main")
func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer { fuzzCompare($0, $1) }
}
