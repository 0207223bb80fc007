import Foundation
import LifetraceTestSupport
import SystemPackage

@testable import lifetrace

/// A command run in the test's process, as swift-argument-parser's own end-to-end tests run theirs: parsed as the
/// executable parses its arguments (``Lifetrace/run(_:on:)``), on a console of its own.
///
/// Standard output and error are files of the run's own, read once it returned; standard input is a pipe that a
/// thread fills with the input given, then closes. Nothing global is redirected, so runs side by side (Swift
/// Testing's parallel tests) each capture only their own command's bytes, those its worker threads write included.
enum InProcessCommand {
    /// A reader that goes away, and a file-size limit, fail the write that meets them, as they do in the executable,
    /// rather than end the test process.
    private static let writeFailuresAsErrors: Void = CommandLineSystem.reportWriteFailuresAsErrors()

    /// Runs the command `arguments` name with `input` on its standard input (an empty pipe for `nil`).
    static func run(_ arguments: [String], input: String?) throws -> ShellResult {
        _ = writeFailuresAsErrors
        let directory = TemporaryDirectory()
        let output = try capture(directory.file("stdout"))
        defer { try? output.close() }
        let error = try capture(directory.file("stderr"))
        defer { try? error.close() }
        let (readEnd, writeEnd) = try FileDescriptor.pipe()
        // The input is written on a thread of its own: a command may read it only after it wrote (or never). A
        // command that stopped reading leaves the rest to fail with EPIPE once its read end is closed.
        let bytes = Array((input ?? "").utf8)
        let written = DispatchSemaphore(value: 0)
        Thread {
            _ = try? bytes.withUnsafeBytes { try writeEnd.writeAll($0) }
            try? writeEnd.close()
            written.signal()
        }.start()
        let status = Lifetrace.run(arguments, on: Console(input: readEnd, output: output, error: error))
        try? readEnd.close()
        written.wait()
        return ShellResult(
            status: status, stdout: try contents(of: directory.file("stdout")),
            stderr: try contents(of: directory.file("stderr")))
    }

    /// A new file at `path` for a run's standard output or error, closed in any program a command starts.
    private static func capture(_ path: String) throws -> FileDescriptor {
        try FileDescriptor.open(
            path, .writeOnly, options: [.create, .truncate, .closeOnExec], permissions: [.ownerReadWrite])
    }

    private static func contents(of path: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    }
}
