import ArgumentParser
import Foundation
import LifetraceFormat
import LifetraceZstd

/// `lifetrace convert IN OUT`: JSON Lines to `.lifetrace` and back.
struct Convert: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a trace between JSON Lines and .lifetrace.",
        discussion: """
            The output's format follows its extension: .jsonl, .ndjson or .json write JSON Lines, anything \
            else .lifetrace. For standard output (-) choose with --to; it defaults to the other format of the \
            input's. Nothing is lost either way: an event whose JSON line would be longer than a JSON Lines \
            reader accepts (1 MiB; a scene name of megabytes) is refused, naming it, and no file is left.
            """
    )

    /// The two encodings a trace can be written in.
    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case lifetrace
        case jsonl
    }

    @Argument(help: "The input trace (- for standard input).")
    var input: String

    @Argument(help: "The output file (- for standard output).")
    var output: String

    @Option(help: "The output format, when the extension does not say.")
    var to: OutputFormat?

    @Option(help: "zstd compression level for .lifetrace output (1-19).")
    var level: Int32 = 3

    func validate() throws {
        guard (1...19).contains(level) else { throw ValidationError("--level must be between 1 and 19") }
    }

    func run(on console: Console) throws {
        try OutputFile.checkNotAnInput(output, inputs: [input])
        let reader = try TraceReader(path: input, codec: .zstd, standardInput: console.input)
        let jsonLines: Bool
        if let to {
            jsonLines = to == .jsonl
        } else if output == "-" {
            jsonLines = reader.format == .binary
        } else {
            jsonLines = [".jsonl", ".ndjson", ".json"].contains { output.hasSuffix($0) }
        }
        let staged = try StagedOutput(path: output, on: console)
        do {
            let writer = try makeEventWriter(
                sink: staged.sink, header: reader.header, jsonLines: jsonLines,
                options: .init(codec: .zstd(level: level)))
            try reader.forEachEvent { event in try writer.append(event) }
            try writer.close()
            try staged.commit()
        } catch {
            staged.abandon()
            throw error
        }
        console.diagnostics.warnings(reader.warnings)
    }
}
