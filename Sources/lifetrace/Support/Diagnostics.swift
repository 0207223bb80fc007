import Foundation
import LifetraceFormat

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
        FileHandle.standardError.write(Data(message.utf8))
    }

    static func raw(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    /// `message` with every control character (C0 but tab, DEL, C1) shown as `\u{1B}`, so that a line quoted
    /// from a damaged input can neither move the terminal's cursor nor split the diagnostic over lines.
    static func printable(_ message: String) -> String {
        guard message.unicodeScalars.contains(where: isControl) else { return message }
        var out = ""
        for scalar in message.unicodeScalars {
            if isControl(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || (scalar.value >= 0x7F && scalar.value < 0xA0)
    }
}
