import ArgumentParser
import SystemPackage

/// Where a command reads its standard input and writes its standard output and its diagnostics: the process's own
/// (``standard``), or the descriptors a caller gives, such as a test that runs commands in its own process.
///
/// A command is given its console and passes it to whatever it starts, threads included: nothing global is
/// redirected, so commands run side by side each write where their own console says.
struct Console: Sendable {
    /// Standard input: what `-` names as an input, the lines `record` and `import` read.
    var input: FileDescriptor
    /// Standard output: what `-` names as an output, what the commands print.
    var output: FileDescriptor
    /// Standard error: the one-line errors, warnings and notes, the progress line.
    var error: FileDescriptor

    /// The process's own standard input, output and error (file descriptors 0, 1 and 2).
    static let standard = Console(input: .standardInput, output: .standardOutput, error: .standardError)

    /// The one-line errors, warnings and notes, written to ``error``.
    var diagnostics: Diagnostics { Diagnostics(descriptor: error) }
}

/// A `lifetrace` command, which runs on the console it is given.
protocol ConsoleCommand: ParsableCommand {
    /// Runs the command, reading and writing through `console`; a status other than success is thrown as
    /// ArgumentParser's `ExitCode`.
    func run(on console: Console) throws
}

extension ConsoleCommand {
    /// Runs the command on the process's own standard input, output and error.
    func run() throws {
        try run(on: .standard)
    }
}
