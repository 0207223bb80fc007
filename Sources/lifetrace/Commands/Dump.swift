import ArgumentParser
import LifetraceFormat

/// `lifetrace dump TRACE`: the trace as canonical JSON Lines on standard output.
struct Dump: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a trace as JSON Lines.",
        discussion: """
            Prints the header line (if the trace has one) and one line per event, in the canonical form of \
            Schemas/trace-event.schema.json: no extra or defaulted fields.
            """
    )

    @Argument(help: "The trace to print (.lifetrace or JSON Lines; - for standard input).")
    var trace: String

    func run() throws {
        let reader = try TraceReader(path: trace)
        let writer = JSONLinesWriter(sink: try FileSink(path: "-"), header: reader.header)
        try reader.forEachEvent { event in try writer.append(event) }
        try writer.close()
        for warning in reader.warnings { Diagnostics.warning(warning.description) }
    }
}
