public import ArgumentParser
import Foundation
import LifetraceAnalysis
import LifetraceChecking
import LifetraceFormat
import LifetraceReport

/// `lifetrace check TRACE...`: what CI runs.
struct Check: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
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

    func run(on console: Console) throws {
        let check = try TraceCheck(try analysis.prepare(on: console), baselinePath: baseline)
        var results: [AnalysisResult] = []
        var unreadable: [TraceError] = []
        for outcome in check.run(traces, workers: ProcessInfo.processInfo.activeProcessorCount) {
            switch outcome {
            case let .success(result):
                console.diagnostics.warnings(result.inputWarnings)
                results.append(result)
            case let .failure(error):
                console.diagnostics.error(error.description)
                unreadable.append(error)
            }
        }
        var out = StandardOutput(console)
        try out.write(CheckOutput.render(results, unreadable: unreadable, strict: strict, format: format))
        try out.flush()
        if !unreadable.isEmpty { throw ExitCode(ExitStatus.badInput) }
        if TraceCheck.fails(results, strict: strict) { throw ExitCode(ExitStatus.findings) }
    }
}

extension CheckOutput.Format: ExpressibleByArgument {}
