import LifetraceCore
public import LifetraceFormat

/// The observations of one set of runs, read from summary rows (``SummaryRow``): per metric, one value per
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
    private var sums: [ComparedMetric: DurationSum] = [:]

    /// No observations.
    public init() {}

    /// Takes one summary row; rows of a trace come together (as `summarize` writes them).
    public mutating func add(_ row: SummaryRow) {
        if row.trace != current {
            finishTrace()
            current = row.trace
        }
        if let impossible = row.impossibleValueMessage {
            // A summary file's rows are refused as they are read (``SummaryRow/init(json:)``); a trace's, made
            // here, make the trace one that could not be read: the gate fails closed.
            unreadable += 1
            if firstUnreadable == nil { firstUnreadable = "\(row.trace): its \(row.columns.kind) row: \(impossible)" }
            return
        }
        switch row.columns {
        case let .trace(columns):
            traces += 1
            if columns.truncated == true {
                truncated += 1
                if firstTruncated == nil { firstTruncated = row.trace }
            }
            let times = columns.times
            for (state, value) in [
                ("active", times.active), ("inactive", times.inactive),
                ("background", times.background), ("suspended", times.suspended),
            ] {
                if let value { values[ComparedMetric(.state, state), default: []].append(value) }
            }
        case .error:
            traces += 1
            unreadable += 1
            if firstUnreadable == nil { firstUnreadable = row.unreadable }
        case let .handler(columns):
            if let name = columns.handler, let mean = columns.mean {
                values[ComparedMetric(.handler, name), default: []].append(mean)
            }
        case let .task(columns):
            if let name = columns.kind, let duration = columns.duration {
                accumulate(ComparedMetric(.task, name), duration)
            }
        case let .service(columns):
            if let name = columns.service {
                if let ready = columns.ready { accumulate(ComparedMetric(.readiness, name), ready) }
                if let shutdown = columns.shutdown { accumulate(ComparedMetric(.shutdown, name), shutdown) }
            }
        case let .process(columns):
            processes += 1
            if let end = columns.end { exits[end, default: 0] += 1 }
            if let launch = columns.launch { accumulate(ComparedMetric(.launch), launch) }
        case .finding, .other:
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

    /// Takes line `number` of the summary file `file` (`summarize`'s output): a summary row
    /// (``SummaryRow/init(line:number:file:)``). An empty line is skipped.
    ///
    /// - Throws: a ``TraceError`` naming the file and the line for anything else, so that a file that is not
    ///   a summary is never compared as an empty one.
    public mutating func add(line: UnsafeBufferPointer<UInt8>, number: Int, file: String) throws(TraceError) {
        if let row = try SummaryRow(line: line, number: number, file: file) { add(row) }
    }

    /// Adds a duration to the trace's sum for `metric`: in 128 bits, so that no sum wraps (two tasks of 2^62 ns).
    private mutating func accumulate(_ metric: ComparedMetric, _ value: Int64) {
        sums[metric, default: DurationSum()].add(value)
    }

    /// The means of the trace that ended: exact, rounded down (integer division, as Spark SQL's `div` does).
    private mutating func finishTrace() {
        for (metric, sum) in sums.sorted(by: { $0.key < $1.key }) {
            values[metric, default: []].append(sum.mean)
        }
        sums.removeAll(keepingCapacity: true)
    }
}

extension SummaryRow {
    /// What an error row says of the trace it stands for: its error, or that the trace could not be read;
    /// `nil` for any other row.
    public var unreadable: String? {
        guard case let .error(columns) = columns else { return nil }
        return columns.error ?? "\(trace): could not be read"
    }
}
