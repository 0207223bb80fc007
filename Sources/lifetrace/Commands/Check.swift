public import ArgumentParser
import Foundation
import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat
import LifetraceReport
import LifetraceZstd

/// `lifetrace check TRACE...`: what CI runs.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check traces against the lifecycle rules and budgets; exit 1 on errors.",
        discussion: """
            Every trace is read once, in constant memory; several traces are checked in parallel. Exit status: \
            0 clean, 1 findings (errors; warnings too with --strict), 2 bad input or usage. `lifetrace rules` \
            lists the rules; `lifetrace explain LT003` explains one.
            """
    )

    @Argument(help: "The traces to check (.lifetrace or JSON Lines).")
    var traces: [String]

    @OptionGroup var analysis: AnalysisOptions

    @Option(help: "Output format: text, json, junit, github or sarif.")
    var format: CheckOutput.Format = .text

    @Option(help: "A previous `check --format json` result: findings listed there are accepted and not reported.")
    var baseline: String?

    @Flag(help: "Fail on warnings too.")
    var strict = false

    func run() throws {
        let prepared = try analysis.prepare()
        let accepted: Set<String> = try baseline.map { (path) throws(TraceError) -> Set<String> in
            try InputFileSize.check(path, limit: InputFileSize.baseline, "a baseline")
            return try Baseline.load(path)
        } ?? []
        let outcomes = checkInParallel(prepared)
        var results: [AnalysisResult] = []
        var failedInput = false
        for outcome in outcomes {
            switch outcome {
            case let .success(result):
                Diagnostics.warnings(result.inputWarnings)
                results.append(filtered(result, accepted: accepted))
            case let .failure(error):
                Diagnostics.error(error.description)
                failedInput = true
            }
        }
        var out = StandardOutput()
        out.write(CheckOutput.render(results, format: format))
        out.flush()
        if failedInput { throw ExitCode(ExitStatus.badInput) }
        let failing = results.contains { $0.count(.error) > 0 || (strict && $0.count(.warning) > 0) }
        if failing { throw ExitCode(ExitStatus.findings) }
    }

    private func filtered(_ result: AnalysisResult, accepted: Set<String>) -> AnalysisResult {
        guard !accepted.isEmpty else { return result }
        var result = result
        result.findings.removeAll { accepted.contains(Baseline.key(file: $0.file, $0.baselineKey)) }
        return result
    }

    /// Analyzes every trace, as many at once as there are cores, keeping the order of the arguments.
    private func checkInParallel(_ prepared: PreparedAnalysis) -> [Result<AnalysisResult, TraceError>] {
        let results = ResultSlots(count: traces.count)
        let traces = traces
        DispatchQueue.concurrentPerform(iterations: traces.count) { index in
            let path = traces[index]
            do {
                results.set(index, .success(try prepared.analyze(path: path)))
            } catch let error as TraceError {
                results.set(index, .failure(error))
            } catch {
                results.set(index, .failure(TraceError(.io, file: path, at: .file, "\(error)")))
            }
        }
        return results.values
    }
}

/// One slot per trace, filled from several threads.
private final class ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<AnalysisResult, TraceError>?]

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    func set(_ index: Int, _ value: Result<AnalysisResult, TraceError>) {
        lock.withLock { slots[index] = value }
    }

    var values: [Result<AnalysisResult, TraceError>] {
        lock.withLock { slots.map { $0! } }
    }
}

extension CheckOutput.Format: ExpressibleByArgument {}
