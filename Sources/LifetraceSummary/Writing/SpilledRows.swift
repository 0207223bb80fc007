import Foundation
public import LifetraceFormat

/// A trace's summary rows as the JSON Lines `summarize` writes, kept in memory up to a mebibyte and past that in
/// an unnamed temporary file, so that a trace of millions of tasks is summarized in memory that does not grow: the
/// rows in order, and the task and service rows, found while the trace is read, until their place.
public struct SpilledRows: SummaryRows {
    private let rows: SpillBuffer
    private let deferred: SpillBuffer
    /// What the first error row since the last ``write(to:)`` said, for the one line `summarize` ends with.
    public private(set) var firstUnreadable: String?

    /// No rows yet; past a mebibyte, they are kept in a file in the temporary directory, and where none can be
    /// made there, ``write(to:)`` fails naming it.
    public init() {
        self.init(spillDirectories: [FileManager.default.temporaryDirectory.path])
    }

    /// No rows yet; past a mebibyte, they are kept in a file in the first of `spillDirectories` where one can be
    /// made, and where none can, ``write(to:)`` fails naming them.
    public init(spillDirectories: [String]) {
        rows = SpillBuffer(directories: spillDirectories)
        deferred = SpillBuffer(directories: spillDirectories)
    }

    public mutating func row(_ row: SummaryRow) {
        if firstUnreadable == nil { firstUnreadable = row.unreadable }
        rows.append(row)
    }
    public mutating func deferredRow(_ row: SummaryRow) { deferred.append(row) }
    public mutating func placeDeferredRows() { rows.append(contentsOf: deferred) }
    public mutating func dropDeferredRows() { deferred.removeAll() }

    /// Writes the rows to `sink` and empties them.
    public mutating func write(to sink: FileSink) throws {
        try rows.write(to: sink)
        rows.removeAll()
        deferred.removeAll()
        firstUnreadable = nil
    }
}
