import ArgumentParser
import Foundation
import LifetraceFormat
import SystemPackage

/// Buffered writes to standard output (its console's).
///
/// A reader that went away (`lifetrace dump t | head -1`) ends the command quietly with exit status 0, as it
/// ends a Unix filter killed by SIGPIPE, without the signal (``StandardOutput/readerWentAway()``); any other
/// failure to write is an error naming standard output (exit 2).
struct StandardOutput {
    private let console: Console
    private var buffer: [UInt8] = []
    /// For `record`'s pass-through of a command's other lines: a failed write drops what follows rather than
    /// ending the command, which still records.
    private let keepsGoing: Bool
    private var failed = false

    /// The standard output of `console`; with `keepsGoing`, a failed write drops the output that follows instead of
    /// ending the command.
    init(_ console: Console, keepsGoing: Bool = false) {
        self.console = console
        self.keepsGoing = keepsGoing
    }

    /// Adds `text`, writing what is buffered once it passes 64 KiB (see ``flush()``).
    mutating func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { try flush() }
    }

    mutating func line(_ text: String = "") throws {
        try write(text + "\n")
    }

    /// Writes what is buffered. A reader that went away ends the command with status 0 (``readerWentAway()``),
    /// another failure with an error and status 2, both thrown as `ExitCode`; with `keepsGoing`, neither throws.
    mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        guard !failed else { return }
        do {
            try buffer.withUnsafeBytes { _ = try console.output.writeAll($0) }
        } catch {
            failed = true
            let brokenPipe = (error as? Errno) == .brokenPipe
            if keepsGoing {
                if !brokenPipe {
                    console.diagnostics.warning(
                        "-: cannot write to standard output (\(error)): the lines that follow are not passed through")
                }
                return
            }
            if brokenPipe { throw Self.readerWentAway() }
            console.diagnostics.error("-: cannot write to standard output: \(error)")
            throw ExitCode(ExitStatus.badInput)
        }
    }

    /// What ends the command quietly, with exit status 0: what was written went to a reader that stopped reading
    /// (`head`), which is not the command's failure.
    static func readerWentAway() -> ExitCode {
        ExitCode(ExitStatus.success)
    }
}

extension StandardOutput {
    /// Writes `text` to the file `path` (put in place whole: ``StagedOutput``), or to the standard output of
    /// `console` for `-`.
    static func write(_ text: String, to path: String, on console: Console) throws {
        // The text's own bytes are written: a page of megabytes is not copied first.
        var text = text
        let staged = try StagedOutput(path: path, on: console)
        try text.withUTF8 { bytes in try staged.sink.write(UnsafeRawBufferPointer(bytes)) }
        try staged.commit()
    }
}

extension TraceError {
    /// Whether this is a write to standard output whose reader went away (`EPIPE`).
    var isBrokenPipe: Bool {
        kind == .io && file == "-" && message.hasSuffix(": " + Errno.brokenPipe.description)
    }
}
