import Foundation
import LifetraceAnalysis
import LifetraceConcurrency
import LifetraceCore
import LifetraceFormat
import LifetraceZstd

/// Summarizes traces on several threads and hands each trace's rows back in the order the traces were listed:
/// what `summarize` writes and what `compare` reads, so both see the same rows. At most one trace per thread and
/// one ahead are in flight, each in rows of the caller's kind, which keep what they hold from growing with the
/// trace (a file for what `summarize` writes, the observations alone for `compare`).
enum SummaryPipeline {
    /// Where one trace is summarized: its entry and its rows.
    private final class Slot<Rows: SummaryRows> {
        var entry = TraceFiles.Entry(path: "")
        var rows: Rows
        var complete = true

        init(rows: Rows) {
            self.rows = rows
        }
    }

    /// Summarizes every trace of `files` on `jobs` threads with the models and configuration of `prepared` into
    /// rows `makeRows` makes (one per thread and one more, reused from trace to trace), and lends each trace's
    /// rows to `consume`, in order, with whether the trace was read to its end; `consume` empties them.
    ///
    /// - Returns: the number of traces summarized.
    @discardableResult
    static func run<Rows: SummaryRows>(
        _ files: TraceFiles, _ prepared: PreparedAnalysis, jobs: Int,
        makeRows: () -> Rows,
        consume: (inout Rows, _ complete: Bool) throws -> Void
    ) throws -> Int {
        let summarizers = (0..<jobs).map { _ in
            LockedValue(TraceSummarizer(models: prepared.models, codec: .zstd) { (header) throws(TraceError) in
                try prepared.configuration(for: header)
            })
        }
        nonisolated(unsafe) var files = files
        nonisolated(unsafe) var listingError: (any Error)?
        var count = 0
        try OrderedPipeline<Slot<Rows>, Bool, TraceError>.run(
            workers: jobs,
            makeSlot: { Slot(rows: makeRows()) },
            claim: { (slot) throws(TraceError) -> Bool in
                do {
                    guard let entry = try files.next() else { return false }
                    slot.entry = entry
                    return true
                } catch {
                    listingError = error
                    return false
                }
            },
            work: { worker, slot in
                slot.complete = summarizers[worker].withLock { summarizer in
                    if let problem = slot.entry.problem {
                        summarizer.unreadable(path: slot.entry.path, problem, into: &slot.rows)
                        return false
                    }
                    return summarizer.summarize(path: slot.entry.path, into: &slot.rows)
                }
                return .success(slot.complete)
            },
            accept: { (_, _) throws(TraceError) in },
            consume: { slot in
                count += 1
                try consume(&slot.rows, slot.complete)
            })
        if let listingError { throw listingError }
        return count
    }
}
