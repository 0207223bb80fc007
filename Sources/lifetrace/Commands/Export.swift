public import ArgumentParser
import Foundation
import LifetraceAnalysis
import LifetraceChecking
import LifetraceCore
import LifetraceFormat
public import LifetraceReport
import LifetraceZstd

/// `lifetrace export [--format perfetto|chrome] TRACE -o OUT`.
struct Export: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a trace for Perfetto and other trace viewers, keeping every event.",
        discussion: """
            perfetto writes Perfetto's own protobuf trace; chrome writes Chrome's Trace Event Format (JSON). \
            Perfetto UI (ui.perfetto.dev: Open trace file) opens both; chrome://tracing and Speedscope open the \
            JSON. Without --format, an output ending in .pftrace or .perfetto-trace is perfetto and any other is chrome.

            Each traced process is a process of its own (numbered from 1 in the order they start; the system's \
            pid and the launch reason are in its name and labels), with tracks for its events, its state, the \
            app delegate, each scene and its state, and its background tasks. Every callback is a slice as long \
            as its handler, every task a slice from begin to end, states are slices, markers, process and system \
            events and the findings of `lifetrace check` are instants; every event's fields are its arguments. \
            Slices that overlap without nesting go to a second lane of their track ("scene S1 (2)"), so viewers \
            drop none; past 1,024 lanes of a track, a slice is an instant with its end as an argument, and \
            standard error says how many were. A truncated trace's warning is in the export too.

            perfetto keeps the trace's nanoseconds; chrome writes microseconds from the trace's first event with \
            exactly three digits of fraction, which a viewer's doubles hold exactly for 26 days; past that, \
            whole microseconds (said on standard error and in otherData.time_precision), so slices still nest \
            as written. Prefer perfetto for long or large traces. The export is written while the trace is \
            read, in memory that does not grow with its length; on a terminal, standard error shows the events \
            exported so far.
            """
    )

    @Option(
        help: "perfetto or chrome (default: perfetto for an output ending in .pftrace or .perfetto-trace, else chrome)."
    )
    var format: TraceExport.Format?

    @Argument(help: "The trace to export.")
    var trace: String

    @Option(name: .shortAndLong, help: "The file to write: OUT.pftrace, OUT.json, or - for standard output.")
    var output: String = "-"

    @OptionGroup var analysis: AnalysisOptions

    func run(on console: Console) throws {
        let format =
            self.format ?? (output.hasSuffix(".pftrace") || output.hasSuffix(".perfetto-trace") ? .perfetto : .chrome)
        if format == .perfetto, output == "-", CommandLineSystem.isTerminal(console.output) {
            throw ValidationError("the perfetto format is binary: write it to a file (-o OUT.pftrace) or a pipe")
        }
        try OutputFile.checkNotAnInput(output, inputs: [trace] + analysis.inputFiles)
        let prepared = try analysis.prepare(on: console)
        let (reader, configuration) = try prepared.open(path: trace)
        let staged = try StagedOutput(path: output, on: console)
        let exported: (summary: ExportSummary, result: AnalysisResult)
        // Events exported so far, on a terminal only: a 10 M-event export takes seconds, a 100 M one a minute.
        let progress = Progress(total: nil, label: "export", on: console)
        do {
            defer { progress.finish() }
            exported = try TraceExport.export(
                reader, file: trace, format: format, to: staged.sink,
                configuration: configuration, models: prepared.models,
                progress: { progress.update(to: $0) })
            try staged.commit()
        } catch {
            // A trace found damaged part way leaves no half-written export behind, and the file that was there.
            staged.abandon()
            throw error
        }
        let (summary, result) = exported
        console.diagnostics.warnings(result.inputWarnings)
        if let note = summary.precisionNote { console.diagnostics.warning("\(trace): \(note)") }
        if summary.unplacedSlices > 0 {
            console.diagnostics.warning(
                "\(trace): \(Plural.count(summary.unplacedSlices, "slice")) drawn as instants: more than "
                    + "\(TraceExport.maximumLanesPerTrack) overlap on one track (each keeps its end as an argument)")
        }
        if output != "-" {
            console.diagnostics.note(
                "wrote \(output): \(Plural.count(summary.events, "event")) of "
                    + "\(Plural.count(summary.processes, "process")) as \(Plural.count(summary.slices, "slice")) and "
                    + "\(Plural.count(summary.instants, "instant")) (\(Plural.count(summary.findings, "finding"))) on "
                    + "\(Plural.count(summary.tracks, "track"))")
        }
    }
}

extension TraceExport.Format: ExpressibleByArgument {}
