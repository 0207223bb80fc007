import LifetraceCore
import LifetraceFormat
import SystemPackage

/// Writes the one-line errors and warnings of the command-line tool to standard error (its console's,
/// ``Console/diagnostics``).
struct Diagnostics: Sendable {
    /// Where the lines go.
    let descriptor: FileDescriptor

    func error(_ message: String) {
        raw("error: " + Self.printable(message))
    }

    func warning(_ message: String) {
        raw("warning: " + Self.printable(message))
    }

    /// Prints what reading a trace warned of, one line each.
    func warnings(_ warnings: [TraceWarning]) {
        for warning in warnings { self.warning(warning.description) }
    }

    func note(_ message: String) {
        raw(Self.printable(message))
    }

    func rawNoNewline(_ message: String) {
        var bytes = Array(message.utf8)
        // Standard error closed or full: nothing is left to tell, and the command's outcome is its exit status.
        _ = try? bytes.withUnsafeMutableBytes { try descriptor.writeAll(UnsafeRawBufferPointer($0)) }
    }

    func raw(_ message: String) {
        rawNoNewline(message + "\n")
    }

    /// `message` with every control character escaped (``PrintableText/escaped(_:)``), so that a line quoted
    /// from a damaged input can neither move the terminal's cursor nor split the diagnostic over lines.
    static func printable(_ message: String) -> String {
        PrintableText.escaped(message)
    }
}
