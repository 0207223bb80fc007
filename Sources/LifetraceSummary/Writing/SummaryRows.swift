/// Where a summarizer puts the rows of a trace: the trace's rows in order, and its task and service rows, which it
/// finds while the trace is read but which come after its handler rows. An implementation that keeps the task rows
/// where memory does not grow (a file) makes a summary whose memory does not grow with the trace; one for which
/// the order does not matter takes them as they come.
public protocol SummaryRows {
    /// The next row of the trace.
    mutating func row(_ row: SummaryRow)
    /// A task or service row, found while the trace is read: it goes where ``placeDeferredRows()`` is called.
    mutating func deferredRow(_ row: SummaryRow)
    /// The task and service rows given so far go here, in the order they came.
    mutating func placeDeferredRows()
    /// The trace could not be read to its end: the task and service rows given so far are not wanted (its error
    /// row stands for it).
    mutating func dropDeferredRows()
}

/// Rows to a function, in order, the task rows held in memory until their place.
struct InMemoryRows: SummaryRows {
    let emit: (SummaryRow) -> Void
    private var deferred: [SummaryRow] = []

    init(emit: @escaping (SummaryRow) -> Void) {
        self.emit = emit
    }

    mutating func row(_ row: SummaryRow) { emit(row) }
    mutating func deferredRow(_ row: SummaryRow) { deferred.append(row) }

    mutating func placeDeferredRows() {
        for row in deferred { emit(row) }
        deferred.removeAll()
    }

    mutating func dropDeferredRows() { deferred.removeAll() }
}

/// A trace's summary rows as `compare` wants them: its observations, in whatever order the rows come.
public struct ObservedRows: SummaryRows {
    /// The observations of the rows given so far.
    public var observations = SummaryObservations()

    /// No rows yet.
    public init() {}

    public mutating func row(_ row: SummaryRow) { observations.add(row) }
    public mutating func deferredRow(_ row: SummaryRow) { observations.add(row) }
    public mutating func placeDeferredRows() {}
    /// Only task and service rows come before a trace turns out unreadable: its error row stands for all of it.
    public mutating func dropDeferredRows() { observations = SummaryObservations() }
}
