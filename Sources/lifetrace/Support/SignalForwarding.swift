import Foundation

/// Closes the trace cleanly on SIGINT and SIGTERM and exits with 128 + the signal's number; with a recorded
/// command, passes the first signal on to it instead and lets the recording go on until the command exits (a
/// service's graceful shutdown is what comes after its SIGTERM), and closes at once on a second signal.
final class SignalForwarding: @unchecked Sendable {
    private var sources: [any DispatchSourceSignal] = []
    /// Whether a signal was passed on to the command: touched on the signal queue only.
    private var forwarded = false

    init(child: Process?, close: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "lifetrace.signals")
        for signalNumber in CommandLineSystem.stopSignals {
            CommandLineSystem.ignore(signalNumber: signalNumber)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            let pid = child?.processIdentifier
            source.setEventHandler { [self] in
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
            sources.append(source)
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}
