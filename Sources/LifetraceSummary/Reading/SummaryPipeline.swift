public import LifetraceAnalysis
import LifetraceConcurrency
import LifetraceCore
public import LifetraceFormat

/// Summarizes traces on several threads and hands each trace's rows back in the order the traces were listed:
/// what `summarize` writes and what `compare` reads, so both see the same rows. At most one trace per thread and
/// one ahead are in flight, each in rows of the caller's kind, which keep what they hold from growing with the
/// trace (a file for what `summarize` writes, the observations alone for `compare`).
public enum SummaryPipeline {
    /// A trace to summarize: its path, and, for one that is not to be opened, why (its error row stands for it).
    public typealias Entry = (path: String, problem: TraceError?)

    /// Where one trace is summarized: its entry and its rows.
    private final class Slot<Rows: SummaryRows> {
        var entry: Entry = ("", nil)
        var rows: Rows
        var complete = true

        init(rows: Rows) {
            self.rows = rows
        }
    }

    /// Summarizes every trace `next` lists (until it gives `nil`) on `jobs` threads, checked against `models`
    /// with the configuration `configuration` gives each, its frames decompressed with `codec`, into rows
    /// `makeRows` makes (one per thread and one more, reused from trace to trace), and lends each trace's rows to
    /// `consume`, in order, with whether the trace was read to its end; `consume` empties them.
    ///
    /// - Returns: the number of traces summarized.
    /// - Throws: what `next` or `consume` throws.
    @discardableResult
    public static func run<Rows: SummaryRows>(
        models: [LifecycleModel], codec: FrameCodec, configuration: @escaping TraceSummarizer.ConfigurationSource,
        jobs: Int, next: () throws -> Entry?,
        makeRows: () -> Rows,
        consume: (inout Rows, _ complete: Bool) throws -> Void
    ) throws -> Int {
        let summarizers = (0..<max(1, jobs)).map { _ in
            LockedValue(TraceSummarizer(models: models, codec: codec, configuration: configuration))
        }
        nonisolated(unsafe) var listingError: (any Error)?
        var count = 0
        try withoutActuallyEscaping(next) { next in
            nonisolated(unsafe) let next = next
            try OrderedPipeline<Slot<Rows>, Bool, TraceError>.run(
                workers: summarizers.count,
                makeSlot: { Slot(rows: makeRows()) },
                claim: { (slot) throws(TraceError) -> Bool in
                    do {
                        guard let entry = try next() else { return false }
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
        }
        if let listingError { throw listingError }
        return count
    }
}
