public import ArgumentParser
import Foundation
import LifetraceAnalysis
import LifetraceChecking
import LifetraceCore
import LifetraceFormat
public import LifetraceReport
import LifetraceSummary

extension ComparisonOutput.Format: ExpressibleByArgument {}

/// `lifetrace compare --base BASE... --new NEW...`: did a build make the lifecycle slower or worse?
struct Compare: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two sets of runs (a base build and a new one); exit 1 on a regression.",
        discussion: """
            Each side is traces, directories of traces, or summary files (`summarize` output, .jsonl). For each \
            handler kind, task kind, launch time, state time and exit kind the two distributions are printed \
            side by side (count, p50, p90, p99; one observation per trace, its mean or total). A duration \
            regresses when the one-sided Mann–Whitney U test is significant (alpha 0.01) and the new median is at \
            least 10 % above the base's; an exit kind when its share of processes rises by 5 points or more, \
            significantly. lifetrace.json's "compare" member sets the thresholds. It fails closed: a side with a \
            trace it could not read, or with none, exits 2 with one line naming the input and prints no verdict; a \
            line of a summary file that is not a summary row is an error. A pipe (`<(command)`) is read as a trace: \
            a summary file is told by its first line, so it must be a file (or standard input redirected from \
            one). Exit status: 0 no regression, 1 a \
            regression, 2 bad input or usage.
            """
    )

    @Option(parsing: .upToNextOption, help: "The base runs: traces, directories or summary files.")
    var base: [String] = []

    @Option(
        name: .customLong("new"), parsing: .upToNextOption, help: "The new runs: traces, directories or summary files.")
    var new: [String] = []

    @Option(help: "Output format: text, markdown or json.")
    var format: ComparisonOutput.Format = .text

    @OptionGroup var jobs: JobsOption

    @OptionGroup var analysis: AnalysisOptions

    func validate() throws {
        if base.isEmpty || new.isEmpty { throw ValidationError("give both --base and --new") }
    }

    func run(on console: Console) throws {
        for (inputs, side) in [(base, "--base"), (new, "--new")] where inputs.contains("") {
            throw TraceError(.io, file: side, at: .file, "an empty path names no trace or directory")
        }
        let prepared = try analysis.prepare(on: console)
        let thresholds = try prepared.configuration?.comparisonThresholds() ?? ComparisonThresholds()
        let baseObservations = try observations(base, side: "--base", prepared, on: console)
        let newObservations = try observations(new, side: "--new", prepared, on: console)
        // A gate that read nothing, or not everything, must not pass: it fails closed.
        for (observations, side, inputs) in [(baseObservations, "--base", base), (newObservations, "--new", new)] {
            try Self.failClosed(observations, side: side, inputs: inputs, on: console)
        }
        let comparison = BuildComparison(base: baseObservations, new: newObservations, thresholds: thresholds)
        for (observations, side) in [(baseObservations, "--base"), (newObservations, "--new")] {
            if let first = observations.firstTruncated {
                let others = observations.truncated - 1
                console.diagnostics.warning(
                    "\(first): truncated, read to its last whole frame"
                        + (others > 0 ? " (and \(others) more \(Plural.noun(others, "trace")) of \(side))" : ""))
            }
        }
        var out = StandardOutput(console)
        try out.write(ComparisonOutput.render(comparison, format: format))
        try out.flush()
        if comparison.hasRegression { throw ExitCode(ExitStatus.findings) }
    }

    /// Fails, with one line naming the input, if a side read no trace or could not read one.
    private static func failClosed(
        _ observations: SummaryObservations, side: String, inputs: [String], on console: Console
    ) throws {
        if let first = observations.firstUnreadable {
            let count = observations.unreadable
            console.diagnostics.error(
                "\(first) (\(Plural.count(count, "trace")) of \(side) could not be read: no verdict without them)")
            throw ExitCode(ExitStatus.badInput)
        }
        if observations.traces == 0 {
            let named = inputs.joined(separator: ", ")
            throw TraceError(
                .io, file: named, at: .file,
                "no trace to compare (\(side)): a directory is walked for *.lifetrace files")
        }
    }

    /// The observations of one side: summary files read as they are, traces summarized first.
    private func observations(_ inputs: [String], side: String, _ prepared: PreparedAnalysis, on console: Console)
        throws -> SummaryObservations
    {
        var observations = SummaryObservations()
        var traces: [String] = []
        for input in inputs {
            switch SummaryFile.content(of: input, standardInput: console.input) {
            case .summary:
                try SummaryFile.read(input, standardInput: console.input, into: &observations)
            case .neither:
                throw TraceError(
                    .malformed, file: input, at: .line(1),
                    "neither a summary row (no \"summary_version\") "
                        + "nor a trace's header (\"lifetrace\") or event (\"t\"): compare takes traces and summarize's output"
                )
            case .trace:
                traces.append(input)
            }
        }
        observations.finish()
        if !traces.isEmpty {
            // Each trace's rows become its observations on the worker that read it: nothing is kept of a row.
            var files = try TraceInputs(traces, on: console)
            try SummaryPipeline.run(
                prepared, jobs: jobs.count, next: { try files.next() }, makeRows: ObservedRows.init
            ) { rows, _ in
                rows.observations.finish()
                observations.merge(rows.observations)
                rows.observations = SummaryObservations()
            }
        }
        return observations
    }
}
