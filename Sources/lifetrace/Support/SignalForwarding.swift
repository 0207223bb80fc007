import Foundation

/// Closes the trace cleanly on SIGINT and SIGTERM, passing the signal on to a recorded command, if there
/// is one, and exiting with 128 + the signal's number.
final class SignalForwarding: @unchecked Sendable {
    private var sources: [any DispatchSourceSignal] = []

    init(child: Process?, close: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "lifetrace.signals")
        for signalNumber in CommandLineSystem.stopSignals {
            CommandLineSystem.ignore(signalNumber: signalNumber)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            let pid = child?.processIdentifier
            source.setEventHandler {
                if let pid { CommandLineSystem.send(signalNumber: signalNumber, to: pid) }
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
