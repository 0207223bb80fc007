import SystemPackage

// The command line's one file of C library calls: every Glibc, Musl and Darwin symbol `lifetrace` uses is here,
// behind a Swift function that means the same on every platform. Files are read and written through
// swift-system's `FileDescriptor` (and LifetraceFormat's `FileSink`), a recorded command runs as a
// Foundation `Process` (`Record.swift` says why not swift-subprocess), and the stop signals of `record` and
// `import --live` are LifetraceIngest's (`Platform/StopSignals.swift`), so what is left is write failures and
// terminals.
// Each call below has the same name and meaning in Glibc, Musl and Darwin.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

enum CommandLineSystem {
    /// Makes a reader that went away (SIGPIPE) and a file-size limit (`ulimit -f`, SIGXFSZ) errors of the write
    /// that meets them, `EPIPE` and `EFBIG`, rather than signals that end the process. The signals get a handler
    /// that does nothing rather than `SIG_IGN`, which a recorded command would inherit through `exec`: a handler
    /// is reset to the default there.
    static func reportWriteFailuresAsErrors() {
        for signalNumber in [SIGPIPE, SIGXFSZ] {
            _ = signal(signalNumber) { _ in }
        }
    }

    /// Whether `descriptor` (a console's standard output or error) is a terminal.
    static func isTerminal(_ descriptor: FileDescriptor) -> Bool {
        isatty(descriptor.rawValue) == 1
    }

    /// The width in columns of the terminal on the file descriptor `descriptor` (standard output), if it says.
    static func terminalColumns(_ descriptor: FileDescriptor) -> Int? {
        var size = winsize()
        // `TIOCGWINSZ` is an Int32 in Glibc and Musl, a UInt in Darwin: `UInt(_:)` takes either.
        guard ioctl(descriptor.rawValue, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Renames `source` to `destination`, replacing the file there in one step (`rename(2)`); the error, if it fails.
    static func move(_ source: String, replacing destination: String) -> Errno? {
        source.withCString { from in
            destination.withCString { to in
                rename(from, to) == 0 ? nil : Errno(rawValue: errno)
            }
        }
    }
}
