import ArgumentParser
import Foundation
import LifetraceAnalysis
import LifetraceChecking
import LifetraceCore
import LifetraceFormat
import LifetraceReport
import LifetraceZstd

/// `lifetrace report TRACE... -o OUT.html|OUT.txt|-`: a timeline people can look at.
struct Report: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Draw the timelines of traces: a self-contained HTML page, or text for a terminal.",
        discussion: """
            Swimlanes per process and per scene show where each was active, inactive, in the background or \
            suspended (inferred suspension drawn as such), callbacks with their handler durations, background \
            tasks against their budget and the findings of `lifetrace check`, with a summary. The output's \
            extension chooses HTML (.html) or text (anything else; - is text on standard output). Text is \
            coloured on a terminal, never with NO_COLOR or when piped.
            """
    )

    @Argument(help: "The traces to draw.")
    var traces: [String]

    @Option(name: .shortAndLong, help: "The report to write: OUT.html, OUT.txt, or - for text on standard output.")
    var output: String = "-"

    @OptionGroup var analysis: AnalysisOptions

    @Option(
        help:
            "The width in columns, 40 to 240 (default: the terminal's, or 80): the timeline's rows fill it, and the legend, findings and summary wrap at spaces to it."
    )
    var width: Int?

    func validate() throws {
        if let width, !(40...240).contains(width) {
            throw ValidationError("--width takes 40 to 240 columns, not \(width)")
        }
    }

    func run(on console: Console) throws {
        try OutputFile.checkNotAnInput(output, inputs: traces + analysis.inputFiles)
        let prepared = try analysis.prepare(on: console)
        var results: [ReportedTrace] = []
        for path in traces {
            results.append(
                try ReportedTrace.analyze { (observer) throws(TraceError) in
                    try prepared.analyze(path: path, observer: observer)
                })
            console.diagnostics.warnings(results[results.count - 1].result.inputWarnings)
        }
        if output.hasSuffix(".html") || output.hasSuffix(".htm") {
            let title = traces.count == 1 ? "lifetrace: \(traces[0])" : "lifetrace: \(traces.count) traces"
            try StandardOutput.write(HTMLReport.render(results, title: title), to: output, on: console)
            console.diagnostics.note("wrote \(output)")
            return
        }
        let toTerminal = output == "-" && CommandLineSystem.isTerminal(console.output)
        let color = toTerminal && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        let columns = width ?? (toTerminal ? CommandLineSystem.terminalColumns(console.output) ?? 80 : 80)
        let timeline = TextTimeline.render(results, width: min(max(columns, 40), 240), color: color)
        try StandardOutput.write(timeline, to: output, on: console)
    }
}
