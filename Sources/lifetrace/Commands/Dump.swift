import ArgumentParser
import LifetraceCore
import LifetraceFormat
import LifetraceZstd

/// `lifetrace dump TRACE`: the trace as canonical JSON Lines on standard output.
struct Dump: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Print a trace as JSON Lines.",
        discussion: """
            Prints the header line (if the trace has one) and one line per event, in the canonical form of \
            Schemas/trace-event.schema.json: no extra or defaulted fields. For a trace derived from a log, the \
            `log_line` attribute that names each event's input line is shown only with --provenance.
            """
    )

    @Argument(help: "The trace to print (.lifetrace or JSON Lines; - for standard input).")
    var trace: String

    @Flag(
        help:
            "Keep the `log_line` attribute of events derived from a log (lifetrace import), which names the input line each came from."
    )
    var provenance = false

    func run(on console: Console) throws {
        let reader = try TraceReader(path: trace, codec: .zstd, standardInput: console.input)
        let writer = JSONLinesWriter(
            sink: try FileSink(path: "-", standardOutput: console.output), header: reader.header)
        let derived = reader.header?.isDerived == true
        try reader.forEachEvent { event in
            guard derived, !provenance, let attrs = event.attrs,
                attrs.contains(where: { $0.key == Attribute.Key.logLine })
            else {
                try writer.append(event)
                return
            }
            var stripped = copy event
            let rest = attrs.filter { $0.key != Attribute.Key.logLine }
            stripped.attrs = rest.isEmpty ? nil : rest
            // An event that needs attributes (`recorder.dropped`) keeps the one it has: what dump prints is what
            // every reader, dump's own writer among them, accepts.
            try writer.append(stripped.problem == nil ? stripped : event)
        }
        try writer.close()
        console.diagnostics.warnings(reader.warnings)
    }
}
