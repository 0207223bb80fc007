// Pipes and files a command run in the test's process reads and writes: for tests that run the command line's
// commands on macOS and Linux, as Shell.swift runs programs.
#if os(macOS) || os(Linux)
import Foundation
public import SystemPackage

/// Runs `command` in this process on standard input, output and error of its own, and returns what it wrote and
/// the status it returned, as ``run(_:_:input:)`` returns a program's.
///
/// Standard input is a pipe that a thread fills with `input` (nothing for `nil`), then closes; standard output and
/// error are as ``runInProcess(reading:_:)`` gives them. A command that stops reading leaves the rest of `input` to
/// a write that fails with `EPIPE`: the caller makes that an error rather than SIGPIPE, as the command line does.
public func runInProcess(
    input: String? = nil,
    _ command: (_ input: FileDescriptor, _ output: FileDescriptor, _ error: FileDescriptor) throws -> Int32
) throws -> ShellResult {
    try withFilledPipe(Array((input ?? "").utf8)) { try runInProcess(reading: $0, command) }
}

/// Runs `command` in this process with `input` as its standard input (left open), and standard output and error
/// of its own: files of the run's own, read once `command` returned. Nothing global is redirected, so runs side by
/// side (Swift Testing's parallel tests) each capture only their own command's bytes, those its threads write
/// included.
public func runInProcess(
    reading input: FileDescriptor,
    _ command: (_ input: FileDescriptor, _ output: FileDescriptor, _ error: FileDescriptor) throws -> Int32
) throws -> ShellResult {
    let directory = TemporaryDirectory()
    let output = try capture(directory.file("stdout"))
    defer { try? output.close() }
    let error = try capture(directory.file("stderr"))
    defer { try? error.close() }
    let status = try command(input, output, error)
    return ShellResult(
        status: status, stdout: String(decoding: directory.read("stdout"), as: UTF8.self),
        stderr: String(decoding: directory.read("stderr"), as: UTF8.self))
}

/// Calls `body` with the path of a pipe a thread fills with `bytes` (`/dev/fd/N`, as bash names the pipe of
/// `<(command)`), and closes the pipe once it returned.
public func withPipe<T>(_ bytes: [UInt8], _ body: (_ path: String) throws -> T) throws -> T {
    try withFilledPipe(bytes) { try body("/dev/fd/\($0.rawValue)") }
}

/// Calls `body` with the read end of a pipe a thread fills with `bytes`, then closes; closes the read end once
/// `body` returned, and waits for the thread.
private func withFilledPipe<T>(_ bytes: [UInt8], _ body: (FileDescriptor) throws -> T) throws -> T {
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    let written = DispatchSemaphore(value: 0)
    Thread {
        _ = try? bytes.withUnsafeBytes { try writeEnd.writeAll($0) }
        try? writeEnd.close()
        written.signal()
    }.start()
    defer {
        try? readEnd.close()
        written.wait()
    }
    return try body(readEnd)
}

/// A new file at `path` for a run's standard output or error, closed in any program a command starts.
private func capture(_ path: String) throws -> FileDescriptor {
    try FileDescriptor.open(
        path, .writeOnly, options: [.create, .truncate, .closeOnExec], permissions: [.ownerReadWrite])
}
#endif
