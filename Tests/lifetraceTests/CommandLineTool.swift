import Foundation
import LifetraceTestSupport
import SystemPackage

/// The `lifetrace` command line, run in this process (``run(_:input:)``) or as the built executable a user runs
/// (``launch(_:input:)``), for the few tests of what only a process shows: exit codes, signals, pipes, memory.
enum CommandLineTool {
    /// The path of the executable: `LIFETRACE_BIN`, or beside the test bundle in the build directory.
    static let path: String = {
        if let explicit = ProcessInfo.processInfo.environment["LIFETRACE_BIN"] { return explicit }
        var candidates: [URL] = []
        let argument0 = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        candidates.append(argument0.deletingLastPathComponent().appendingPathComponent("lifetrace"))
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("lifetrace"))
        }
        candidates.append(URL(fileURLWithPath: PackagePaths.path(".build/debug/lifetrace")))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }?.path
            ?? candidates[candidates.count - 1].path
    }()

    /// Parses `arguments` and runs the command they name in this process, as the executable would
    /// (``InProcessCommand``): what it wrote to standard output and error, and the exit status it would end with.
    /// `input` is its standard input, through a pipe; without it, the pipe is empty.
    static func run(_ arguments: [String], input: String? = nil) throws -> ShellResult {
        try InProcessCommand.run(arguments, input: input)
    }

    /// Parses `arguments` and runs the command in this process, as ``run(_:input:)``, reading its standard input
    /// from `input`, which other programs write (its end is the pipe's end).
    static func run(_ arguments: [String], reading input: FileDescriptor) throws -> ShellResult {
        try InProcessCommand.run(arguments, reading: input)
    }

    /// Parses `arguments` and runs the command in this process, as ``run(_:input:)``; `nil` if it has not returned
    /// after `seconds`, as `timeout` would stop the executable (the command's thread is left running).
    static func run(_ arguments: [String], returningWithin seconds: Double) throws -> ShellResult? {
        try InProcessCommand.run(arguments, returningWithin: seconds)
    }

    /// Runs the built executable with `arguments`, feeding `input` to its standard input.
    static func launch(_ arguments: [String], input: String? = nil) throws -> ShellResult {
        try LifetraceTestSupport.run(path, arguments, input: input)
    }
}
