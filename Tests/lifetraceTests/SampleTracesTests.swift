import Foundation
import LifetraceTestSupport
import Testing

/// The committed simulated samples are exactly what `scripts/gen-samples` writes: the simulator is
/// deterministic, and the samples are current.
@Suite struct SampleTracesTests {
    @Test(.integration) func regeneratingTheSamplesGivesTheCommittedBytes() throws {
        let directory = TemporaryDirectory()
        let script = PackagePaths.path("scripts/gen-samples")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script, "--out", directory.path]
        process.environment = ProcessInfo.processInfo.environment.merging(["LIFETRACE_BIN": CommandLineTool.path]) {
            $1
        }
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let generated = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(generated.count == 90)
        for name in generated {
            let committed = PackagePaths.path("SampleTraces/" + name)
            #expect(
                FileManager.default.contentsEqual(atPath: committed, andPath: directory.file(name)),
                "\(name) differs from the committed sample: run scripts/gen-samples")
        }
    }

    @Test func theReadmeListsEverySample() throws {
        let readme = try String(contentsOfFile: PackagePaths.path("SampleTraces/README.md"), encoding: .utf8)
        for path in PackagePaths.sampleTraces(extension: "jsonl") {
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            let listed =
                readme.contains("`\(name)`")
                || readme.contains(
                    "`" + name.split(separator: ".").dropLast().joined(separator: ".")
                        + ".{uikit-scenes,app-delegate,swiftui}`")
            #expect(listed, "\(name) is not in SampleTraces/README.md")
        }
    }
}
