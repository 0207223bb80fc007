import ArgumentParser
import LifetraceCore
import LifetraceFormat
import LifetraceZstd

/// `lifetrace recover IN OUT`: salvages every intact frame of a damaged trace.
struct Recover: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover",
        abstract: "Copy every intact frame of a damaged .lifetrace file into a new, valid one.",
        discussion: """
            Frames that fail zstd's checksum or do not decode are dropped, and so is an incomplete last \
            frame; the new file gets a fresh index. Prints what was kept and every region dropped.
            """
    )

    @Argument(help: "The damaged .lifetrace file.")
    var input: String

    @Argument(help: "The repaired .lifetrace file to write.")
    var output: String

    func run(on console: Console) throws {
        try OutputFile.checkNotAnInput(output, inputs: [input])
        let report = try TraceRecovery.recover(input: input, output: output)
        var out = StandardOutput(console)
        try out.line(
            "\(output): kept \(Plural.count(report.keptFrames, "frame")), \(Plural.count(report.keptEvents, "event"))")
        if report.headerReplaced { try out.line("  header frame unreadable: wrote one without metadata") }
        for region in report.dropped { try out.line("  dropped \(region)") }
        if report.dropped.isEmpty, !report.headerReplaced {
            try out.line("  nothing dropped: every frame of \(input) was kept, its index written anew")
        }
        try out.flush()
    }
}
