import Foundation

/// Where the package's files are, for tests that read the schemas, the samples or the scripts.
public enum PackagePaths {
    /// The package's root directory.
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// A path relative to the package's root.
    public static func path(_ relative: String) -> String {
        root + "/" + relative
    }

    /// The sample traces of `SampleTraces/` with the given extension, sorted.
    public static func sampleTraces(extension ext: String) -> [String] {
        let directory = path("SampleTraces")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix("." + ext) }.sorted().map { directory + "/" + $0 }
    }
}
