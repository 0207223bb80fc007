package import LifetraceAnalysis
import LifetraceConcurrency
package import LifetraceFormat

/// What `lifetrace check` does with its traces: each analyzed once, several at a time on the package's one
/// parallel runner (``OrderedPipeline``), in the order they were listed, with the findings a baseline accepts
/// left out.
package struct TraceCheck: Sendable {
    /// The models and configuration every trace is analyzed with.
    package let prepared: PreparedAnalysis
    /// The accepted findings, as ``Baseline/key(file:_:)`` spells them; empty without a baseline.
    package let accepted: Set<String>

    /// A check with `prepared`'s models and configuration, accepting the findings in `accepted`.
    package init(_ prepared: PreparedAnalysis, accepting accepted: Set<String> = []) {
        self.prepared = prepared
        self.accepted = accepted
    }

    /// A check accepting the findings of the baseline at `baselinePath` (a previous `check --format json`
    /// result), if any.
    ///
    /// - Throws: bad input naming the baseline: larger than ``InputFileSize/baseline``, unreadable or not a
    ///   check result.
    package init(_ prepared: PreparedAnalysis, baselinePath: String?) throws(TraceError) {
        let accepted = try baselinePath.map { (path) throws(TraceError) -> Set<String> in try Baseline.load(path) }
        self.init(prepared, accepting: accepted ?? [])
    }

    /// Analyzes the traces at `paths` on up to `workers` threads and returns each one's result, or the error that
    /// stopped its reading, in the order of `paths`.
    package func run(_ paths: [String], workers: Int) -> [Result<AnalysisResult, TraceError>] {
        var outcomes: [Result<AnalysisResult, TraceError>] = []
        outcomes.reserveCapacity(paths.count)
        guard !paths.isEmpty else { return outcomes }
        nonisolated(unsafe) var next = 0
        let check = self
        // Nothing fails the pipeline itself: a trace's failure is its outcome, and the others are still checked.
        try? OrderedPipeline<Slot, Void, Never>.run(
            workers: max(1, min(workers, paths.count)),
            makeSlot: { Slot() },
            claim: { slot in
                guard next < paths.count else { return false }
                slot.path = paths[next]
                next += 1
                return true
            },
            work: { _, slot in
                slot.outcome = Result { () throws(TraceError) in
                    check.filtered(try check.prepared.analyze(path: slot.path))
                }
                return .success(())
            },
            accept: { _, _ in },
            consume: { slot in
                if let outcome = slot.outcome { outcomes.append(outcome) }
                slot.outcome = nil
            })
        return outcomes
    }

    /// `result` without the findings the baseline accepts.
    package func filtered(_ result: AnalysisResult) -> AnalysisResult {
        guard !accepted.isEmpty else { return result }
        var result = result
        result.findings.removeAll { accepted.contains(Baseline.key(file: $0.file, $0.baselineKey)) }
        return result
    }

    /// Whether `results` fail a check: an error, or with `strict` a warning too.
    package static func fails(_ results: [AnalysisResult], strict: Bool) -> Bool {
        results.contains { $0.count(.error) > 0 || (strict && $0.count(.warning) > 0) }
    }

    /// Where one trace is checked: its path and, once done, its outcome.
    private final class Slot {
        var path = ""
        var outcome: Result<AnalysisResult, TraceError>?
    }
}
