import Foundation
import LifetraceTestSupport

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

    /// Runs the built executable with `arguments`, feeding `input` to its standard input.
    static func launch(_ arguments: [String], input: String? = nil) throws -> ShellResult {
        try LifetraceTestSupport.run(path, arguments, input: input)
    }
}
