// It runs `swift package dump-package`: on the machines that build the package, not in a simulator.
#if os(macOS) || os(Linux)
import Foundation
import LifetraceTestSupport
import Testing

/// Apple's iOS, tvOS, watchOS and visionOS SDKs have no libzstd: nothing an app links may need a C library.
@Suite struct RecorderDependencyTests {
    struct Target {
        var name: String
        var type: String
        var dependencies: [String]
        var products: [String]
    }

    /// The package's targets, as its manifest declares them (`swift package dump-package`, with a scratch
    /// directory of its own so that it does not wait for the build running the tests).
    func manifestTargets() throws -> [String: Target] {
        let swift = try #require(which("swift"))
        let scratch = TemporaryDirectory()
        let dumped = try run(
            swift,
            [
                "package", "--package-path", PackagePaths.root, "--scratch-path", scratch.path,
                "dump-package",
            ])
        #expect(dumped.status == 0, "\(dumped.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(dumped.stdout.utf8)) as? [String: Any])
        var targets: [String: Target] = [:]
        for target in try #require(json["targets"] as? [[String: Any]]) {
            var dependencies: [String] = []
            var products: [String] = []
            for dependency in target["dependencies"] as? [[String: [Any]]] ?? [] {
                if let name = (dependency["byName"] ?? dependency["target"])?.first as? String {
                    dependencies.append(name)
                }
                if let name = dependency["product"]?.first as? String { products.append(name) }
            }
            let name = target["name"] as? String ?? ""
            targets[name] = Target(
                name: name, type: target["type"] as? String ?? "", dependencies: dependencies,
                products: products)
        }
        return targets
    }

    @Test func theRecordersDependencyClosureHoldsNoCLibrary() throws {
        let targets = try manifestTargets()
        var closure: [String] = []
        var todo = ["LifetraceRecorder"]
        while let name = todo.popLast() {
            guard !closure.contains(name) else { continue }
            closure.append(name)
            todo += targets[name]?.dependencies ?? []
        }
        #expect(closure.sorted() == ["LifetraceConcurrency", "LifetraceCore", "LifetraceFormat", "LifetraceRecorder"])
        for name in closure {
            let target = try #require(targets[name])
            #expect(target.type == "regular", "\(name) is a \(target.type) target")
            // swift-system's `SystemPackage` alone: Swift and C sources that build with the app for every Apple
            // platform, no library of the system's.
            #expect(
                target.products.allSatisfy { $0 == "SystemPackage" },
                "\(name) depends on the products \(target.products)")
            let files =
                FileManager.default.enumerator(atPath: PackagePaths.path("Sources/\(name)"))?
                .compactMap { $0 as? String } ?? []
            #expect(!files.isEmpty)
            // Swift sources, and the recorder's privacy manifest (a property list, no code).
            // (and the DocC catalogue, documentation that is never compiled).
            #expect(
                files.allSatisfy {
                    !$0.contains(".") || $0.hasSuffix(".swift") || $0 == "PrivacyInfo.xcprivacy"
                        || $0.hasPrefix("\(name).docc")
                },
                "\(name) holds \(files)")
        }
        // And the one C library the package has is declared as such, so the test above would see it.
        #expect(targets["CZstd"]?.type == "system")
    }
}
#endif
