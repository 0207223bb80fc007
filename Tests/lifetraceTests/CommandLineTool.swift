import Foundation
import LifetraceTestSupport

/// The built `lifetrace` executable, run as a user runs it.
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

    static func run(_ arguments: [String], input: String? = nil) throws -> ShellResult {
        try LifetraceTestSupport.run(path, arguments, input: input)
    }
}
