import FuzzSupport
import LifetraceCore
import LifetraceFormat
import LifetraceReport
import LifetraceSummary

/// Summary rows with hostile numbers (0, -1, the Int64 limits, 2^62, any eight bytes) in every column `compare`
/// reads, as a summary file: a row with a negative duration or count is an error naming its line; otherwise every
/// trace's mean lies between the least and the greatest of its values (no sum wraps), and the comparison with
/// itself and with a few runs renders in every format. Never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCompareNumbers(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    var input = Bytes(UnsafeRawBufferPointer(start: data, count: size))
    let columns: [(row: String, key: String, name: String?)] = [
        ("task", "duration_ns", "background-task"), ("task", "duration_ns", "refresh-task"),
        ("service", "ready_ns", "worker"), ("service", "shutdown_ns", "worker"), ("process", "launch_ns", nil),
        ("handler", "mean_ns", "scene.didEnterBackground"), ("trace", "active_ns", nil),
    ]
    var lines: [String] = []
    // Per trace, in order, the task durations of each kind: what its mean must lie between.
    var taskValues: [[String: [Int64]]] = []
    var negativeLine: Int?
    let traces = 1 + Int(input.next() % 4)
    for trace in 0..<traces {
        taskValues.append([:])
        for _ in 0..<(1 + Int(input.next() % 6)) where !input.isEmpty {
            let column = columns[Int(input.next()) % columns.count]
            let value = input.hostileValue()
            var members = [
                "\"summary_version\":1", "\"row\":\"\(column.row)\"", "\"trace\":\"t\(trace)\"",
                "\"\(column.key)\":\(value)",
            ]
            switch column.row {
            case "task": members.append("\"task_kind\":\"\(column.name!)\"")
            case "service": members.append("\"service\":\"\(column.name!)\"")
            case "handler": members.append("\"handler\":\"\(column.name!)\"")
            default: break
            }
            lines.append("{" + members.joined(separator: ",") + "}")
            if value < 0, negativeLine == nil { negativeLine = lines.count }
            if column.row == "task", value >= 0 { taskValues[trace][column.name!, default: []].append(value) }
        }
    }
    var observations = SummaryObservations()
    for (index, line) in lines.enumerated() {
        let bytes = Array(line.utf8)
        do {
            try bytes.withUnsafeBufferPointer { try observations.add(line: $0, number: index + 1, file: "f.sum.jsonl") }
        } catch let error as TraceError {
            precondition(
                index + 1 == negativeLine && error.position == .line(index + 1) && error.file == "f.sum.jsonl",
                "a row refused that is not the first negative one, or an error not naming its line: \(error)")
            return 0
        } catch {
            preconditionFailure("not a TraceError: \(error)")
        }
    }
    precondition(negativeLine == nil, "a negative value was compared: line \(negativeLine!)")
    observations.finish()
    for kind in ["background-task", "refresh-task"] {
        let means = observations.values[ComparedMetric(.task, kind)] ?? []
        let expected = taskValues.compactMap { $0[kind] }
        precondition(means.count == expected.count, "\(kind): \(means.count) means for \(expected.count) traces")
        for (mean, values) in zip(means, expected) {
            precondition(mean >= values.min()! && mean <= values.max()!, "\(kind): mean \(mean) outside \(values)")
        }
    }
    for (base, new) in [(observations, observations), (runs, observations), (observations, runs)] {
        let comparison = BuildComparison(base: base, new: new)
        for format in ComparisonOutput.Format.allCases { _ = ComparisonOutput.render(comparison, format: format) }
    }
    return 0
}

/// The fuzzer's bytes, read from the front; zeros once they run out.
private struct Bytes {
    private var rest: ArraySlice<UInt8>
    init(_ buffer: UnsafeRawBufferPointer) { rest = Array(buffer)[...] }
    var isEmpty: Bool { rest.isEmpty }
    mutating func next() -> UInt8 { rest.popFirst() ?? 0 }

    /// A number at or near a limit, or any eight bytes.
    mutating func hostileValue() -> Int64 {
        let choices: [Int64] = [0, 1, -1, .max, .min, 1 << 62, (1 << 62) + 1, .max - 1, 1_000_000_000, 4_000_000_000]
        let pick = Int(next())
        if pick < 200 { return choices[pick % choices.count] }
        var value: UInt64 = 0
        for _ in 0..<8 { value = value << 8 | UInt64(next()) }
        return Int64(bitPattern: value)
    }
}

/// A few runs to compare with.
private let runs: SummaryObservations = {
    var observations = SummaryObservations()
    for (trace, duration) in [("a", 4_000_000_000), ("b", 5_000_000_000)] {
        let line =
            #"{"summary_version":1,"row":"task","trace":"\#(trace)","task_kind":"background-task","duration_ns":\#(duration)}"#
        try! Array(line.utf8).withUnsafeBufferPointer { try observations.add(line: $0, number: 1, file: "runs") }
    }
    observations.finish()
    return observations
}()

/// The program's entry, which SwiftPM names after the target.
@_cdecl("FuzzCompareNumbers_main")
func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer { fuzzCompareNumbers($0, $1) }
}
