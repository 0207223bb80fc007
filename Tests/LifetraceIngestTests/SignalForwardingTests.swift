import Dispatch
import Foundation
import LifetraceIngest
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What SIGINT and SIGTERM do to `record` and `import --live`, in process: the signals are sent to the test
/// process itself, with the process's end replaced by a record of the signal. One test at a time: the signals'
/// handlers are the process's.
@Suite(.serialized) struct SignalForwardingTests {
    /// What the forwarding did, in order.
    final class Calls: @unchecked Sendable {
        private let lock = NSLock()
        private var calls: [String] = []
        let stopped = DispatchSemaphore(value: 0)

        func append(_ call: String) { lock.withLock { calls.append(call) } }
        var all: [String] { lock.withLock { calls } }
    }

    static func forwarding(childPID: Int32?, _ calls: Calls) -> SignalForwarding {
        SignalForwarding(childPID: childPID, close: { calls.append("close") }) { signal in
            calls.append("stop \(signal)")
            calls.stopped.signal()
        }
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalClosesTheTraceThenEndsWithItsNumber(signal: Int32) throws {
        let calls = Calls()
        let forwarding = Self.forwarding(childPID: nil, calls)
        defer { forwarding.cancel() }
        kill(getpid(), signal)
        #expect(calls.stopped.wait(timeout: .now() + 10) == .success)
        #expect(calls.all == ["close", "stop \(signal)"])
    }

    /// With a recorded command, the first signal is the command's (its graceful shutdown is recorded); a second
    /// closes the trace at once.
    @Test func theFirstSignalGoesToTheCommandAndTheSecondCloses() throws {
        let calls = Calls()
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sleep")
        child.arguments = ["60"]
        // The command inherits this thread's signal mask, as `record`'s does: a test runner's thread may block the
        // stop signals.
        StopSignals.unblock()
        try child.run()
        let forwarding = Self.forwarding(childPID: child.processIdentifier, calls)
        defer { forwarding.cancel() }
        kill(getpid(), SIGTERM)
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal)
        #expect(child.terminationStatus == SIGTERM)
        #expect(calls.all.isEmpty, "the recording goes on until the command's output ends")
        kill(getpid(), SIGINT)
        #expect(calls.stopped.wait(timeout: .now() + 10) == .success)
        #expect(calls.all == ["close", "stop \(SIGINT)"])
    }
}
