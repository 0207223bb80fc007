import Foundation

/// Writes the one-line errors and warnings of the command-line tool to standard error.
enum Diagnostics {
    static func error(_ message: String) {
        raw("error: " + message)
    }

    static func warning(_ message: String) {
        raw("warning: " + message)
    }

    static func note(_ message: String) {
        raw(message)
    }

    static func rawNoNewline(_ message: String) {
        FileHandle.standardError.write(Data(message.utf8))
    }

    static func raw(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
