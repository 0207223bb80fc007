import LifetraceCore
import LifetraceFormat
import SystemPackage

/// Writes the one-line errors and warnings of the command-line tool to standard error.
enum Diagnostics {
    static func error(_ message: String) {
        raw("error: " + printable(message))
    }

    static func warning(_ message: String) {
        raw("warning: " + printable(message))
    }

    /// Prints what reading a trace warned of, one line each.
    static func warnings(_ warnings: [TraceWarning]) {
        for warning in warnings { self.warning(warning.description) }
    }

    static func note(_ message: String) {
        raw(printable(message))
    }

    static func rawNoNewline(_ message: String) {
        var bytes = Array(message.utf8)
        // Standard error closed or full: nothing is left to tell, and the command's outcome is its exit status.
        _ = try? bytes.withUnsafeMutableBytes { try FileDescriptor.standardError.writeAll(UnsafeRawBufferPointer($0)) }
    }

    static func raw(_ message: String) {
        rawNoNewline(message + "\n")
    }

    /// `message` with every control character escaped (``PrintableText/escaped(_:)``), so that a line quoted
    /// from a damaged input can neither move the terminal's cursor nor split the diagnostic over lines.
    static func printable(_ message: String) -> String {
        PrintableText.escaped(message)
    }
}
