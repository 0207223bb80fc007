import Foundation

/// Closes the trace cleanly on SIGINT and SIGTERM, passing the signal on to a recorded command, if there
/// is one, and exiting with 128 + the signal's number.
///
/// A signal that arrives at any moment after `init` returns is acted on: the signal handler writes it into a
/// pipe (``CommandLineSystem/routeStopSignalsToPipe()``), which a dispatch source reads.
final class SignalForwarding: @unchecked Sendable {
    private var source: (any DispatchSourceRead)?

    init(child: Process?, close: @escaping @Sendable () -> Void) {
        guard let pipe = CommandLineSystem.routeStopSignalsToPipe() else { return }
        let source = DispatchSource.makeReadSource(fileDescriptor: pipe, queue: DispatchQueue(label: "lifetrace.signals"))
        let pid = child?.processIdentifier
        source.setEventHandler {
            guard let signalNumber = CommandLineSystem.readSignalNumber(from: pipe) else { return }
            if let pid { CommandLineSystem.send(signalNumber: signalNumber, to: pid) }
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
