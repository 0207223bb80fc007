import Foundation
import LifetraceFormat
import SystemPackage

/// Buffered writes to standard output.
///
/// A reader that went away (`lifetrace dump t | head -1`) ends the command quietly with exit status 0, as it
/// ends a Unix filter killed by SIGPIPE, without the signal (``StandardOutput/readerWentAway()``); any other
/// failure to write is an error naming standard output (exit 2).
struct StandardOutput {
    private var buffer: [UInt8] = []
    /// For `record`'s pass-through of a command's other lines: a failed write drops what follows rather than
    /// ending the command, which still records.
    private let keepsGoing: Bool
    private var failed = false

    /// Standard output; with `keepsGoing`, a failed write drops the output that follows instead of ending the
    /// process.
    init(keepsGoing: Bool = false) {
        self.keepsGoing = keepsGoing
    }

    mutating func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func line(_ text: String = "") {
        write(text + "\n")
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        guard !failed else { return }
        do {
            try buffer.withUnsafeBytes { _ = try FileDescriptor.standardOutput.writeAll($0) }
        } catch {
            failed = true
            let brokenPipe = (error as? Errno) == .brokenPipe
            if keepsGoing {
                if !brokenPipe {
                    Diagnostics.warning(
                        "-: cannot write to standard output (\(error)): the lines that follow are not passed through")
                }
                return
            }
            if brokenPipe { Self.readerWentAway() }
            Diagnostics.error("-: cannot write to standard output: \(error)")
            Foundation.exit(ExitStatus.badInput)
        }
    }

    /// Ends the process quietly, with exit status 0: what was written went to a reader that stopped reading
    /// (`head`), which is not the command's failure.
    static func readerWentAway() -> Never {
        Foundation.exit(ExitStatus.success)
    }
}

extension StandardOutput {
    /// Writes `text` to the file `path` (put in place whole: ``StagedOutput``), or to standard output for `-`.
    static func write(_ text: String, to path: String) throws {
        // The text's own bytes are written: a page of megabytes is not copied first.
        var text = text
        let staged = try StagedOutput(path: path)
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
