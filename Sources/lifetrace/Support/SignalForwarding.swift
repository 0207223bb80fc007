import Foundation

/// Closes the trace cleanly on SIGINT and SIGTERM and exits with 128 + the signal's number; with a recorded
/// command, passes the first signal on to it instead and lets the recording go on until the command exits (a
/// service's graceful shutdown is what comes after its SIGTERM), and closes at once on a second signal.
///
/// A signal that arrives at any moment after `init` returns is acted on: the signal handler writes it into a
/// pipe (``CommandLineSystem/routeStopSignalsToPipe()``), which a dispatch source reads.
final class SignalForwarding: @unchecked Sendable {
    private var source: (any DispatchSourceRead)?
    /// Whether a signal was passed on to the command: touched on the signal queue only.
    private var forwarded = false

    init(child: Process?, close: @escaping @Sendable () -> Void) {
        guard let pipe = CommandLineSystem.routeStopSignalsToPipe() else { return }
        let source = DispatchSource.makeReadSource(fileDescriptor: pipe, queue: DispatchQueue(label: "lifetrace.signals"))
        let pid = child?.processIdentifier
        source.setEventHandler { [self] in
            guard let signalNumber = CommandLineSystem.readSignalNumber(from: pipe) else { return }
            if let pid {
                CommandLineSystem.send(signalNumber: signalNumber, to: pid)
                // The command's exit ends the recording, as its output's end.
                if !forwarded {
                    forwarded = true
                    return
                }
            }
            close()
            exit(128 + signalNumber)
        }
        source.resume()
        self.source = source
    }

    /// Stops acting on the signals: from now on they end the process, as by default.
    func cancel() {
        CommandLineSystem.restoreStopSignals()
        source?.cancel()
    }
}
