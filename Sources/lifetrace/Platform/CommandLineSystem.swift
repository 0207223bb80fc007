// The command line's one file of C library calls: every Glibc, Musl and Darwin symbol `lifetrace` uses is here,
// behind a Swift function that means the same on every platform. Files are read and written through
// swift-system's `FileDescriptor` (and LifetraceFormat's `FileSink`), and a recorded command runs as a
// Foundation `Process` (`Record.swift` says why not swift-subprocess), so what is left is signals and terminals.
// Each call below has the same name and meaning in Glibc, Musl and Darwin.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

enum CommandLineSystem {
    /// The signals that stop `record` and `import --live` cleanly: SIGINT (Ctrl-C) and SIGTERM.
    static let stopSignals: [Int32] = [SIGINT, SIGTERM]

    /// Makes a reader that went away (SIGPIPE) and a file-size limit (`ulimit -f`, SIGXFSZ) errors of the write
    /// that meets them, `EPIPE` and `EFBIG`, rather than signals that end the process. The signals get a handler
    /// that does nothing rather than `SIG_IGN`, which a recorded command would inherit through `exec`: a handler
    /// is reset to the default there.
    static func reportWriteFailuresAsErrors() {
        for signalNumber in [SIGPIPE, SIGXFSZ] {
            _ = signal(signalNumber) { _ in }
        }
    }

    /// The write end of the pipe the stop signals' handler writes into; -1 until ``routeStopSignalsToPipe()``.
    nonisolated(unsafe) private static var stopSignalPipe: Int32 = -1

    /// Makes SIGINT and SIGTERM write their number into a pipe instead of ending the process, and returns the
    /// pipe's read end, or `nil` if no pipe could be made (the signals then keep their default action).
    ///
    /// The handler is in place when this returns, and a signal waits in the pipe until it is read: none is lost,
    /// however soon it comes. (A dispatch signal source alone is registered asynchronously, and a signal that
    /// arrives before the registration, while ignored, is gone.) Both ends are closed on `exec`, and the handler,
    /// unlike `SIG_IGN`, is reset there, so a command started later has the default actions.
    static func routeStopSignalsToPipe() -> Int32? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // A full pipe (more than a page of signals not yet read) drops the signal rather than blocking a handler.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        stopSignalPipe = ends[1]
        // A mask inherited blocked (a test runner's thread may block them) would keep the handler from running.
        unblockStopSignals()
        for signalNumber in stopSignals {
            // Only async-signal-safe calls here: write(2).
            _ = signal(signalNumber) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(CommandLineSystem.stopSignalPipe, &byte, 1)
            }
        }
        return ends[0]
    }

    /// Gives SIGINT and SIGTERM back their default action: they end the process.
    static func restoreStopSignals() {
        for signalNumber in stopSignals { _ = signal(signalNumber, SIG_DFL) }
    }

    /// The number of the next signal ``routeStopSignalsToPipe()``'s pipe holds, read from its read end `pipe`;
    /// `nil` if none could be read.
    static func readSignalNumber(from pipe: Int32) -> Int32? {
        var byte: UInt8 = 0
        return read(pipe, &byte, 1) == 1 ? Int32(byte) : nil
    }

    /// Unblocks the stop signals in the calling thread, so that a command it starts, which inherits its signal
    /// mask, can receive the stop signals `record` passes on (a parent, such as a test runner's worker thread, may
    /// have blocked them).
    static func unblockStopSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for signalNumber in stopSignals { sigaddset(&set, signalNumber) }
        _ = pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Sends `signalNumber` to the process `pid`.
    static func send(signalNumber: Int32, to pid: Int32) {
        _ = kill(pid, signalNumber)
    }

    /// Whether the file descriptor `descriptor` (1: standard output, 2: standard error) is a terminal.
    static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    /// The width in columns of the terminal on standard output, if it says.
    static func terminalColumns() -> Int? {
        var size = winsize()
        // `TIOCGWINSZ` is an Int32 in Glibc and Musl, a UInt in Darwin: `UInt(_:)` takes either.
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
