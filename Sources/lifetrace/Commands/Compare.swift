public import ArgumentParser
import Foundation
import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat
public import LifetraceReport
import SystemPackage

extension ComparisonOutput.Format: ExpressibleByArgument {}

/// `lifetrace compare --base BASE... --new NEW...`: did a build make the lifecycle slower or worse?
struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare two sets of runs (a base build and a new one); exit 1 on a regression.",
        discussion: """
            Each side is traces, directories of traces, or summary files (`summarize` output, .jsonl). For each \
            handler kind, task kind, launch time, state time and exit kind the two distributions are printed \
            side by side (count, p50, p90, p99; one observation per trace, its mean or total). A duration \
            regresses when the one-sided Mann–Whitney U test is significant (alpha 0.01) and the new median is at \
            least 10 % above the base's; an exit kind when its share of processes rises by 5 points or more, \
            significantly. lifetrace.json's "compare" member sets the thresholds. Exit status: 0 no regression, 1 a \
            regression, 2 bad input or usage.
            """
    )

    @Option(parsing: .upToNextOption, help: "The base runs: traces, directories or summary files.")
    var base: [String] = []

    @Option(name: .customLong("new"), parsing: .upToNextOption, help: "The new runs: traces, directories or summary files.")
    var new: [String] = []

    @Option(help: "Output format: text, markdown or json.")
    var format: ComparisonOutput.Format = .text

    @OptionGroup var jobs: JobsOption

    @OptionGroup var analysis: AnalysisOptions

    func validate() throws {
        if base.isEmpty || new.isEmpty { throw ValidationError("give both --base and --new") }
    }

    func run() throws {
        let prepared = try analysis.prepare()
        let thresholds = try prepared.configuration?.comparisonThresholds() ?? ComparisonThresholds()
        let comparison = BuildComparison(base: try observations(base, prepared), new: try observations(new, prepared),
                                         thresholds: thresholds)
        var out = StandardOutput()
        out.write(ComparisonOutput.render(comparison, format: format))
        out.flush()
        if comparison.hasRegression { throw ExitCode(ExitStatus.findings) }
    }

    /// The observations of one side: summary files read as they are, traces summarized first.
    private func observations(_ inputs: [String], _ prepared: PreparedAnalysis) throws -> SummaryObservations {
        var observations = SummaryObservations()
        var traces: [String] = []
        for input in inputs {
            if Self.isSummary(input) { try Self.read(summary: input, into: &observations) } else { traces.append(input) }
        }
        if !traces.isEmpty {
            // The rows as values: no JSON written only to be read back.
            try SummaryPipeline.run(try TraceFiles(traces), prepared, jobs: jobs.count,
                                    summarize: { summarizer, path, rows in summarizer.summarize(path: path) { rows.append($0) } },
                                    consume: { (rows: [JSONValue], _) in for row in rows { observations.add(row) } })
        }
        observations.finish()
        return observations
    }

    /// Whether `path` is a summary file: JSON Lines whose first line is a summary row.
    private static func isSummary(_ path: String) -> Bool {
        let prefix = Array("{\"summary_version\":".utf8)
        guard let descriptor = try? FileDescriptor.open(forReading: path) else { return false }
        defer { try? descriptor.close() }
        var start = [UInt8](repeating: 0, count: prefix.count)
        let got = try? start.withUnsafeMutableBytes { try descriptor.read(into: $0) }
        return got == prefix.count && start == prefix
    }

    private static func read(summary path: String, into observations: inout SummaryObservations) throws {
        let descriptor = try FileDescriptor.open(forReading: path)
        defer { try? descriptor.close() }
        var lines = LineStream(descriptor: descriptor)
        var number = 0
        while try lines.next({ bytes in
            number += 1
            guard !bytes.isEmpty else { return }
            do throws(TraceError) {
                observations.add(try JSONValue(parsing: String(decoding: bytes, as: UTF8.self), file: path))
            } catch {
                throw TraceError(.malformed, file: path, at: .line(number), error.message)
            }
        }) {}
    }
}
