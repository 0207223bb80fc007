import ArgumentParser
import Foundation
import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat
import LifetraceSummary

/// `lifetrace summarize TRACES... [-o FILE]`: summary rows for a warehouse, from many traces.
struct Summarize: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "summarize",
        abstract:
            "Summarize traces as JSON Lines a warehouse loads: a row per trace, process, handler kind, task and finding.",
        discussion: """
            Every row has the same leading columns (summary_version, row, trace, and the header's app, app_version, \
            build, os_version, device, test_name, source); Schemas/summary.schema.json documents every column. \
            Directories are walked for *.lifetrace files. Traces are read on every core, in constant memory, and \
            the rows come out in the order the traces were given. A trace that cannot be read gives an error row \
            (row "error") and the rest go on. Exit status: 0 every trace read, 2 some could not be (their error \
            rows were written), no trace was found (directories with no *.lifetrace file, an empty list), or bad \
            usage.
            """
    )

    @Argument(help: "Traces and directories of traces.")
    var traces: [String] = []

    @Option(
        name: .customLong("files-from"),
        help: "Also read the traces listed in this file, one per line (- for standard input).")
    var filesFrom: String?

    @Option(name: .shortAndLong, help: "The JSON Lines file to write; - for standard output.")
    var output = "-"

    @OptionGroup var jobs: JobsOption

    @OptionGroup var analysis: AnalysisOptions

    func validate() throws {
        if traces.isEmpty, filesFrom == nil { throw ValidationError("give traces, directories or --files-from") }
    }

    func run(on console: Console) throws {
        try OutputFile.checkNotAnInput(output, inputs: traces + (filesFrom.map { [$0] } ?? []) + analysis.inputFiles)
        let staged = try StagedOutput(path: output, on: console)
        let sink = staged.sink
        let progress = Progress(total: nil, label: "summarize", unit: "traces", every: 1000, on: console)
        var summarized = 0
        var unreadable = 0
        var firstUnreadable: String?
        var files = try TraceInputs(traces, listFile: filesFrom, output: output, on: console)
        // A trace's rows past a mebibyte go to a file: in the temporary directory, else beside the output.
        let outputDirectory =
            output == "-" ? "." : (OutputFile.followingLinks(output) as NSString).deletingLastPathComponent
        let spillDirectories = [
            FileManager.default.temporaryDirectory.path, outputDirectory.isEmpty ? "." : outputDirectory,
        ]
        try SummaryPipeline.run(
            try analysis.prepare(on: console), jobs: jobs.count, next: { try files.next() },
            makeRows: { SpilledRows(spillDirectories: spillDirectories) }
        ) { rows, complete in
            summarized += 1
            if !complete {
                unreadable += 1
                firstUnreadable = firstUnreadable ?? rows.firstUnreadable
            }
            try rows.write(to: sink)
            progress.tick()
        }
        try sink.flush()
        progress.finish()
        if summarized == 0 {
            // Directories with no trace, or an empty list: no row at all would pass for a clean run.
            staged.abandon()
            let named = (traces + (filesFrom.map { ["--files-from \($0)"] } ?? [])).joined(separator: ", ")
            throw TraceError(
                .io, file: named, at: .file, "no trace to summarize: a directory is walked for *.lifetrace files")
        }
        // Unreadable traces have error rows: the output is whole, and the exit status says they failed.
        try staged.commit()
        if unreadable > 0 {
            // One line naming the first input that could not be read; the rows name every one.
            console.diagnostics.error(
                "\(firstUnreadable ?? "a trace could not be read") (\(Plural.count(unreadable, "trace")) "
                    + "could not be read: see their error rows)")
            throw ExitCode(ExitStatus.badInput)
        }
    }
}
