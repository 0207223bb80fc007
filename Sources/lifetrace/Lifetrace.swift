import ArgumentParser
import Foundation
import LifetraceFormat
import SystemPackage

/// The `lifetrace` command: records, converts, inspects and repairs app-lifecycle traces.
@main
struct Lifetrace: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lifetrace",
        abstract: "Record, simulate, check, convert, inspect and repair iOS app-lifecycle traces.",
        discussion: """
            Traces are .lifetrace files (zstd-framed binary) or JSON Lines; every command that reads a trace \
            accepts both and tells them apart by content.

            Exit codes: 0 success; 1 findings; 2 bad input or usage (one line on standard error naming the \
            file and the byte offset or line); `record` with a command, the command's status; `record` and \
            `import --live` stopped by SIGINT or SIGTERM, 128 + the signal after closing the trace. A reader of \
            standard output that goes away (`lifetrace dump t | head`) ends the command quietly with 0.
            """,
        version: "0.1.0",
        subcommands: [
            Simulate.self, Record.self, Import.self, Check.self, Report.self, Export.self, Summarize.self, Compare.self,
            Rules.self, Explain.self, Convert.self, Info.self, Dump.self, Recover.self,
        ]
    )

    /// Runs the command, mapping every failure to a documented exit code.
    static func main() {
        CommandLineSystem.reportWriteFailuresAsErrors()
        Foundation.exit(run(nil, on: .standard))
    }

    /// Parses `arguments` (`nil`: the process's own) and runs the command they name on `console`, every failure
    /// said on its standard error; returns the exit status, which ``main()`` ends the process with.
    static func run(_ arguments: [String]?, on console: Console) -> Int32 {
        do {
            var command = try parseAsRoot(arguments)
            if let command = command as? any ConsoleCommand {
                try command.run(on: console)
            } else {
                try command.run()
            }
            return ExitStatus.success
        } catch let error as TraceError {
            if error.isBrokenPipe { return StandardOutput.readerWentAway().rawValue }
            console.diagnostics.error(error.description)
            return ExitStatus.badInput
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                // Usage errors: one line, as any other bad input's, and exit 2.
                console.diagnostics.error(usageLine(for: error))
                return ExitStatus.badInput
            }
            // What ArgumentParser's `exit(withError:)` prints: help and the version on standard output, any other
            // message on standard error; an `ExitCode` a command throws prints nothing.
            let text = fullMessage(for: error)
            if !text.isEmpty {
                var bytes = Array((text + "\n").utf8)
                let descriptor = code == .success ? console.output : console.error
                _ = try? bytes.withUnsafeMutableBytes { try descriptor.writeAll(UnsafeRawBufferPointer($0)) }
            }
            return code.rawValue
        }
    }

    /// A usage error on one line: the parser's message, then where the command's help is, as in
    /// `missing expected argument '<trace>' (see 'lifetrace export --help')`.
    static func usageLine(for error: any Error) -> String {
        let message = message(for: error).split(whereSeparator: \.isNewline).joined(separator: "; ")
        var sentence = message.prefix(1).lowercased() + message.dropFirst()
        if sentence.hasSuffix(".") { sentence.removeLast() }
        // The parser's full message ends with "See 'lifetrace export --help' for more information."
        let help = fullMessage(for: error).split(whereSeparator: \.isNewline).last { $0.contains("--help'") }
        guard let help, let open = help.firstIndex(of: "'"),
            let close = help[help.index(after: open)...].firstIndex(of: "'")
        else { return sentence }
        return sentence + " (see " + help[open...close] + ")"
    }
}
