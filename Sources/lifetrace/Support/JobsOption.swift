import ArgumentParser
import Foundation

/// `--jobs N`: how many traces a command reads at once (`summarize`, `compare`).
struct JobsOption: ParsableArguments {
    @Option(help: "How many traces to read at once (default: one per core).")
    var jobs: Int?

    func validate() throws {
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs must be from 1 to 256") }
    }

    /// The number of threads to read on.
    var count: Int { jobs ?? ProcessInfo.processInfo.activeProcessorCount }
}
