// The stop signals of `record` and `import --live` (SIGINT, SIGTERM): this module's one file of C library calls,
// each with the same name and meaning in Glibc, Musl and Darwin.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT and SIGTERM taken from their default action and read from a pipe, passed on to a recorded command, and
/// given back.
package enum StopSignals {
    /// The signals that stop `record` and `import --live` cleanly: SIGINT (Ctrl-C) and SIGTERM.
    package static let all: [Int32] = [SIGINT, SIGTERM]

    /// The write end of the pipe the stop signals' handler writes into; -1 until ``routeToPipe()``.
    nonisolated(unsafe) private static var pipeEnd: Int32 = -1

    /// Makes SIGINT and SIGTERM write their number into a pipe instead of ending the process, and returns the
    /// pipe's ends, or `nil` if no pipe could be made (the signals then keep their default action).
    ///
    /// The handler is in place when this returns, and a signal waits in the pipe until it is read: none is lost,
    /// however soon it comes. (A dispatch signal source alone is registered asynchronously, and a signal that
    /// arrives before the registration, while ignored, is gone.) Both ends are closed on `exec`, and the handler,
    /// unlike `SIG_IGN`, is reset there, so a command started later has the default actions.
    package static func routeToPipe() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // A full pipe (more than a page of signals not yet read) drops the signal rather than blocking a handler.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        pipeEnd = ends[1]
        // A mask inherited blocked (a test runner's thread may block them) would keep the handler from running.
        unblock()
        for signalNumber in all {
            // Only async-signal-safe calls here: write(2).
            _ = signal(signalNumber) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(StopSignals.pipeEnd, &byte, 1)
            }
        }
        return (ends[0], ends[1])
    }

    /// Closes the write end `end` of a pipe ``routeToPipe()`` made, once the signals have their default action
    /// again (``restore()``): the handler, if still in flight, then writes to no pipe.
    package static func closeWriteEnd(_ end: Int32) {
        if pipeEnd == end { pipeEnd = -1 }
        _ = close(end)
    }

    /// Closes the read end `end` of a pipe ``routeToPipe()`` made, once nothing reads it.
    package static func closeReadEnd(_ end: Int32) {
        _ = close(end)
    }

    /// Gives SIGINT and SIGTERM back their default action: they end the process.
    package static func restore() {
        for signalNumber in all { _ = signal(signalNumber, SIG_DFL) }
    }

    /// The number of the next signal ``routeToPipe()``'s pipe holds, read from its read end `pipe`;
    /// `nil` if none could be read.
    package static func readSignalNumber(from pipe: Int32) -> Int32? {
        var byte: UInt8 = 0
        return read(pipe, &byte, 1) == 1 ? Int32(byte) : nil
    }

    /// Unblocks the stop signals in the calling thread, so that a command it starts, which inherits its signal
    /// mask, can receive the stop signals `record` passes on (a parent, such as a test runner's worker thread, may
    /// have blocked them).
    package static func unblock() {
        var set = sigset_t()
        sigemptyset(&set)
        for signalNumber in all { sigaddset(&set, signalNumber) }
        _ = pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Sends `signalNumber` to the process `pid`.
    package static func send(signalNumber: Int32, to pid: Int32) {
        _ = kill(pid, signalNumber)
    }
}
