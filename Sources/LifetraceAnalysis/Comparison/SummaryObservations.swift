public import LifetraceCore
public import LifetraceFormat

/// The observations of one set of runs, read from summary rows (``TraceSummarizer``): per metric, one value per
/// trace (see ``ComparedMetric``), and for exit kinds the processes that ended each way.
public struct SummaryObservations: Sendable {
    /// Per metric, a value per trace, in the order the rows came.
    public private(set) var values: [ComparedMetric: [Int64]] = [:]
    /// Processes by how they ended.
    public private(set) var exits: [String: Int] = [:]
    /// All processes.
    public private(set) var processes = 0
    /// Traces read, and traces that gave an error row.
    public private(set) var traces = 0
    /// Traces that could not be read.
    public private(set) var unreadable = 0
    /// What the first error row said: the trace and why it could not be read.
    public private(set) var firstUnreadable: String?
    /// Traces that were truncated (read to their last whole frame), and the first of them.
    public private(set) var truncated = 0
    public private(set) var firstTruncated: String?

    /// Sums of the trace being read, per metric: the mean is taken when its rows end.
    private var current = ""
    private var sums: [ComparedMetric: (total: Int64, count: Int64)] = [:]

    /// No observations.
    public init() {}

    /// What an error row says of the trace it stands for: its error, or that the trace could not be read;
    /// `nil` for any other row.
    public static func unreadable(_ row: JSONValue) -> String? {
        guard row["row"]?.stringValue == "error" else { return nil }
        return row["error"]?.stringValue ?? "\(row["trace"]?.stringValue ?? "a trace"): could not be read"
    }

    /// Takes one summary row; rows of a trace come together (as `summarize` writes them).
    public mutating func add(_ row: JSONValue) {
        guard let trace = row["trace"]?.stringValue, let kind = row["row"]?.stringValue else { return }
        if trace != current {
            finishTrace()
            current = trace
        }
        switch kind {
        case "trace":
            traces += 1
            if row["truncated"]?.boolValue == true {
                truncated += 1
                if firstTruncated == nil { firstTruncated = trace }
            }
            for state in ["active", "inactive", "background", "suspended"] {
                if let value = row["\(state)_ns"]?.intValue { values[ComparedMetric(.state, state), default: []].append(value) }
            }
        case "error":
            traces += 1
            unreadable += 1
            if firstUnreadable == nil { firstUnreadable = Self.unreadable(row) }
        case "handler":
            if let name = row["handler"]?.stringValue, let mean = row["mean_ns"]?.intValue {
                values[ComparedMetric(.handler, name), default: []].append(mean)
            }
        case "task":
            if let name = row["task_kind"]?.stringValue, let duration = row["duration_ns"]?.intValue {
                accumulate(ComparedMetric(.task, name), duration)
            }
        case "service":
            if let name = row["service"]?.stringValue {
                if let ready = row["ready_ns"]?.intValue { accumulate(ComparedMetric(.readiness, name), ready) }
                if let shutdown = row["shutdown_ns"]?.intValue { accumulate(ComparedMetric(.shutdown, name), shutdown) }
            }
        case "process":
            processes += 1
            if let end = row["end"]?.stringValue { exits[end, default: 0] += 1 }
            if let launch = row["launch_ns"]?.intValue { accumulate(ComparedMetric(.launch), launch) }
        default:
            break
        }
    }

    /// Ends the rows: call once after the last.
    public mutating func finish() {
        finishTrace()
        current = ""
    }

    /// Adds the observations of `other` (finished), which come after these: those of the traces `other` read.
    public mutating func merge(_ other: SummaryObservations) {
        for (metric, values) in other.values { self.values[metric, default: []] += values }
        for (end, count) in other.exits { exits[end, default: 0] += count }
        processes += other.processes
        traces += other.traces
        unreadable += other.unreadable
        truncated += other.truncated
        firstUnreadable = firstUnreadable ?? other.firstUnreadable
        firstTruncated = firstTruncated ?? other.firstTruncated
    }

    /// Takes line `number` of the summary file `file` (`summarize`'s output): a summary row, which must be a
    /// JSON object with the members every row has. An empty line is skipped.
    ///
    /// - Throws: a ``TraceError`` naming the file and the line for anything else, so that a file that is not
    ///   a summary is never compared as an empty one.
    public mutating func add(line: UnsafeBufferPointer<UInt8>, number: Int, file: String) throws(TraceError) {
        guard !line.isEmpty else { return }
        if number == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw TraceError(.malformed, file: file, at: .line(number),
                             "starts with a byte-order mark (U+FEFF), which JSON Lines does not have: save it without one")
        }
        let row: JSONValue
        do throws(TraceError) {
            row = try JSONValue(parsing: String(decoding: line, as: UTF8.self), file: file)
        } catch {
            throw TraceError(.malformed, file: file, at: .line(number), error.message)
        }
        if let problem = Self.problem(with: row) { throw TraceError(.malformed, file: file, at: .line(number), problem) }
        add(row)
    }

    /// Why `row` is not a summary row of the version this library writes, `nil` if it is one.
    public static func problem(with row: JSONValue) -> String? {
        guard case .object = row else { return "not a summary row: \(Self.kind(of: row)), not an object" }
        guard let version = row["summary_version"] else { return "not a summary row: no summary_version" }
        guard version == .int(Int64(TraceSummarizer.schemaVersion)) else {
            return "summary_version \(version.jsonText) is not \(TraceSummarizer.schemaVersion), the version this lifetrace reads"
        }
        guard row["row"]?.stringValue != nil else { return "not a summary row: no \"row\" string" }
        guard row["trace"]?.stringValue != nil else { return "not a summary row: no \"trace\" string" }
        return nil
    }

    private static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    private mutating func accumulate(_ metric: ComparedMetric, _ value: Int64) {
        let sum = sums[metric] ?? (0, 0)
        sums[metric] = (sum.total &+ value, sum.count + 1)
    }

    /// The means of the trace that ended: integer division, as Spark SQL's `div` does.
    private mutating func finishTrace() {
        for (metric, sum) in sums.sorted(by: { $0.key < $1.key }) {
            values[metric, default: []].append(sum.total / sum.count)
        }
        sums.removeAll(keepingCapacity: true)
    }
}
