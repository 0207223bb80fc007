import Foundation
import LifetraceAnalysis
import LifetraceConcurrency
import LifetraceCore
import LifetraceFormat
import LifetraceZstd

/// Summarizes traces on several threads and hands each trace's rows back in the order the traces were listed:
/// what `summarize` writes and what `compare` reads, so both see the same rows. At most one trace per thread and
/// one ahead are in memory.
enum SummaryPipeline {
    /// Where one trace is summarized: its path and its rows.
    private final class Slot<Rows: RangeReplaceableCollection> {
        var path = ""
        var rows = Rows()
        var complete = true
    }

    /// Summarizes every trace of `files` on `jobs` threads with the models and configuration of `prepared`:
    /// `summarize` puts a trace's rows in the form the caller wants (JSON Lines, or values) on the worker's
    /// thread, and `consume` gets them, in order, with whether the trace was read to its end.
    ///
    /// - Returns: the number of traces summarized.
    @discardableResult
    static func run<Rows: RangeReplaceableCollection & Sendable>(
        _ files: TraceFiles, _ prepared: PreparedAnalysis, jobs: Int,
        summarize: @escaping (inout TraceSummarizer, _ path: String, inout Rows) -> Bool,
        consume: (Rows, _ complete: Bool) throws -> Void
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
            makeSlot: Slot.init,
            claim: { (slot) throws(TraceError) -> Bool in
                do {
                    guard let path = try files.next() else { return false }
                    slot.path = path
                    return true
                } catch {
                    listingError = error
                    return false
                }
            },
            work: { worker, slot in
                slot.rows.removeAll(keepingCapacity: true)
                slot.complete = summarizers[worker].withLock { summarize(&$0, slot.path, &slot.rows) }
                return .success(slot.complete)
            },
            accept: { (_, _) throws(TraceError) in },
            consume: { slot in
                count += 1
                try consume(slot.rows, slot.complete)
            })
        if let listingError { throw listingError }
        return count
    }
}
