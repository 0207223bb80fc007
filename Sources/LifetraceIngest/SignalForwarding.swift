import Foundation

/// Closes the trace cleanly on SIGINT and SIGTERM and ends the process with 128 + the signal's number; with a
/// recorded command, passes the first signal on to it instead and lets the recording go on until the command
/// exits (a service's graceful shutdown is what comes after its SIGTERM), and closes at once on a second signal.
///
/// A signal that arrives at any moment after `init` returns is acted on: the signal handler writes it into a
/// pipe (``StopSignals/routeToPipe()``), which a dispatch source reads.
package final class SignalForwarding: @unchecked Sendable {
    private var source: (any DispatchSourceRead)?
    /// Whether a signal was passed on to the command: touched on the signal queue only.
    private var forwarded = false
    /// The write end of the pipe the signals' handler writes into; -1 once closed (or if there is none).
    private var writeEnd: Int32 = -1

    /// Acts on the stop signals from now on.
    ///
    /// - Parameters:
    ///   - childPID: the recorded command's process, which the first signal is passed on to; `nil` for none.
    ///   - close: closes the trace; called on the signal queue.
    ///   - stop: ends the process after `close`, given the signal's number; by default exits with 128 + it, as a
    ///     process the signal ended reports.
    package init(
        childPID: Int32?, close: @escaping @Sendable () -> Void,
        stop: @escaping @Sendable (Int32) -> Void = { exit(128 + $0) }
    ) {
        guard let (pipe, writeEnd) = StopSignals.routeToPipe() else { return }
        self.writeEnd = writeEnd
        let source = DispatchSource.makeReadSource(
            fileDescriptor: pipe, queue: DispatchQueue(label: "lifetrace.signals"))
        // The pipe's read end is closed once the source no longer reads it; a process that makes many (a test
        // running commands in its own process) keeps no descriptor of them.
        source.setCancelHandler { StopSignals.closeReadEnd(pipe) }
        source.setEventHandler { [self] in
            guard let signalNumber = StopSignals.readSignalNumber(from: pipe) else { return }
            if let childPID {
                StopSignals.send(signalNumber: signalNumber, to: childPID)
                // The command's exit ends the recording, as its output's end.
                if !forwarded {
                    forwarded = true
                    return
                }
            }
            close()
            stop(signalNumber)
        }
        source.resume()
        self.source = source
    }

    /// Stops acting on the signals: from now on they end the process, as by default.
    package func cancel() {
        StopSignals.restore()
        if writeEnd >= 0 {
            StopSignals.closeWriteEnd(writeEnd)
            writeEnd = -1
        }
        source?.cancel()
    }
}
