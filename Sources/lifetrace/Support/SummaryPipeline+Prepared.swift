import LifetraceAnalysis
import LifetraceChecking
import LifetraceFormat
import LifetraceSummary
import LifetraceZstd

extension SummaryPipeline {
    /// Summarizes the traces `next` lists with the models and configuration of `prepared`, reading frames libzstd
    /// compressed (see ``SummaryPipeline/run(models:codec:configuration:jobs:next:makeRows:consume:)``).
    @discardableResult
    static func run<Rows: SummaryRows>(
        _ prepared: PreparedAnalysis, jobs: Int, next: () throws -> TraceInputs.Entry?,
        makeRows: () -> Rows, consume: (inout Rows, _ complete: Bool) throws -> Void
    ) throws -> Int {
        try run(
            models: prepared.models, codec: .zstd,
            configuration: { (header) throws(TraceError) in
                try prepared.configuration(for: header)
            }, jobs: jobs, next: { try next().map { ($0.path, $0.problem) } }, makeRows: makeRows, consume: consume)
    }
}
