import Foundation
import LifetraceAnalysis
import LifetraceConcurrency
import LifetraceCore
import LifetraceFormat

/// Summarizes traces on several threads and hands each trace's rows back in the order the traces were listed:
/// what `summarize` writes and what `compare` reads, so both see the same rows. At most one trace per thread and
/// one ahead are in memory.
enum SummaryPipeline {
    /// Where one trace is summarized: its path and its rows.
    private final class Slot {
        var path = ""
        var rows: [UInt8] = []
        var complete = true
    }

    /// Summarizes every trace of `files` on `jobs` threads, with the models and configuration of `analysis`;
    /// `consume` gets each trace's rows (JSON Lines) and whether the trace was read to its end.
    ///
    /// - Returns: the number of traces summarized.
    @discardableResult
    static func run(_ files: TraceFiles, analysis: AnalysisOptions, jobs: Int,
                    consume: ([UInt8], _ complete: Bool) throws -> Void) throws -> Int {
        let models = try analysis.loadModels()
        let summarizers = (0..<jobs).map { _ in
            LockedValue(TraceSummarizer(models: models) { (header) throws(TraceError) in try analysis.configuration(for: header) })
        }
        nonisolated(unsafe) var files = files
        nonisolated(unsafe) var listingError: (any Error)?
        var count = 0
        try OrderedPipeline<Slot, Bool, TraceError>.run(
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
                slot.complete = summarizers[worker].withLock { $0.summarize(path: slot.path, into: &slot.rows) }
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
