public import LifetraceCore

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

    /// Sums of the trace being read, per metric: the mean is taken when its rows end.
    private var current = ""
    private var sums: [ComparedMetric: (total: Int64, count: Int64)] = [:]

    /// No observations.
    public init() {}

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
            for state in ["active", "inactive", "background", "suspended"] {
                if let value = row["\(state)_ns"]?.intValue { values[ComparedMetric(.state, state), default: []].append(value) }
            }
        case "error":
            traces += 1
            unreadable += 1
        case "handler":
            if let name = row["handler"]?.stringValue, let mean = row["mean_ns"]?.intValue {
                values[ComparedMetric(.handler, name), default: []].append(mean)
            }
        case "task":
            if let name = row["task_kind"]?.stringValue, let duration = row["duration_ns"]?.intValue {
                accumulate(ComparedMetric(.task, name), duration)
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
