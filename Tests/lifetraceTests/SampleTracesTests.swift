import Foundation
import LifetraceTestSupport
import Testing

/// The samples' README names every committed sample (`scripts/gen-samples --check`, in `scripts/test`, checks that
/// they are what the simulator writes).
@Suite struct SampleTracesTests {
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
