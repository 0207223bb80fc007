import Foundation
import LifetraceTestSupport
import SystemPackage

@testable import lifetrace

/// A command run in the test's process, as swift-argument-parser's own end-to-end tests run theirs: parsed as the
/// executable parses its arguments (``Lifetrace/run(_:on:)``), on a console of its own (``runInProcess(input:_:)``).
enum InProcessCommand {
    /// A reader that goes away, and a file-size limit, fail the write that meets them, as they do in the executable,
    /// rather than end the test process.
    private static let writeFailuresAsErrors: Void = CommandLineSystem.reportWriteFailuresAsErrors()

    /// Runs the command `arguments` name with `input` on its standard input (an empty pipe for `nil`).
    static func run(_ arguments: [String], input: String?) throws -> ShellResult {
        _ = writeFailuresAsErrors
        return try runInProcess(input: input) { input, output, error in
            Lifetrace.run(arguments, on: Console(input: input, output: output, error: error))
        }
    }

    /// Runs the command `arguments` name reading standard input from `input` (a pipe other programs write).
    static func run(_ arguments: [String], reading input: FileDescriptor) throws -> ShellResult {
        _ = writeFailuresAsErrors
        return try runInProcess(reading: input) { input, output, error in
            Lifetrace.run(arguments, on: Console(input: input, output: output, error: error))
        }
    }

    /// Runs the command `arguments` name, as ``run(_:input:)``, on a thread of its own; `nil` if it has not
    /// returned after `seconds` (its thread is left running): a hang fails the test rather than stop the suite.
    static func run(_ arguments: [String], returningWithin seconds: Double) throws -> ShellResult? {
        let outcome = LockedOutcome()
        let returned = DispatchSemaphore(value: 0)
        Thread {
            outcome.set(Result { try run(arguments, input: nil) })
            returned.signal()
        }.start()
        guard returned.wait(timeout: .now() + seconds) == .success else { return nil }
        return try outcome.get()
    }
}

/// The outcome of a run on another thread.
private final class LockedOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<ShellResult, any Error>?

    func set(_ result: Result<ShellResult, any Error>) {
        lock.withLock { self.result = result }
    }

    func get() throws -> ShellResult {
        try lock.withLock { result }!.get()
    }
}
