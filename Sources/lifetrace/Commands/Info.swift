import ArgumentParser
import Foundation
import LifetraceFormat
import LifetraceReport
import LifetraceZstd

/// `lifetrace info TRACE...`: what a trace holds and how it is stored.
struct Info: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Summarize traces: header, events, time span, frames, size, index and damage.",
        discussion:
            "Reads every event, so it also verifies the trace. Exit 2 if any trace is damaged beyond a truncated end."
    )

    @Argument(help: "The traces (.lifetrace or JSON Lines; - for standard input).")
    var traces: [String]

    @Flag(help: "Print one JSON object per trace instead of text.")
    var json = false

    func run(on console: Console) throws {
        var out = StandardOutput(console)
        var failed = false
        // Counting is light next to decoding: decode on every core, up to three (each thread holds a frame and a
        // block: about 8 MB). On 2 cores and a 3-million-event trace, 12-20 % faster than one thread.
        let threads = min(3, ProcessInfo.processInfo.activeProcessorCount)
        for path in traces {
            do {
                let overview = try TraceOverview(
                    path: path, reader: try TraceReader(path: path, codec: .zstd, standardInput: console.input),
                    decodingThreads: threads)
                if json { try out.line(overview.jsonValue.jsonText) } else { try out.write(overview.text) }
                console.diagnostics.warnings(overview.warnings)
            } catch let error as TraceError {
                try out.flush()
                console.diagnostics.error(error.description)
                failed = true
            }
        }
        try out.flush()
        if failed { throw ExitCode(ExitStatus.badInput) }
    }
}
