import Foundation
import LifetraceTestSupport
import Testing

/// An app that links the recorder must declare why it uses the APIs on Apple's required-reason list
/// (Apple, "Describing use of required reason API"); the recorder's `PrivacyInfo.xcprivacy` does it for
/// everything the recorder's closure calls.
@Suite struct PrivacyManifestTests {
    /// The APIs on Apple's list, by the names Swift code calls them, and their category.
    static let requiredReasonAPIs: [(pattern: String, category: String)] = [
        // File timestamp APIs
        ("creationDate", "NSPrivacyAccessedAPICategoryFileTimestamp"),
        ("modificationDate", "NSPrivacyAccessedAPICategoryFileTimestamp"),
        ("fileModificationDate", "NSPrivacyAccessedAPICategoryFileTimestamp"),
        ("contentModificationDateKey", "NSPrivacyAccessedAPICategoryFileTimestamp"),
        ("creationDateKey", "NSPrivacyAccessedAPICategoryFileTimestamp"),
        ("attributesOfItem", "NSPrivacyAccessedAPICategoryFileTimestamp"),
        ("getattrlist", "NSPrivacyAccessedAPICategoryFileTimestamp"),
        ("getattrlistbulk", "NSPrivacyAccessedAPICategoryFileTimestamp"),
        ("fgetattrlist", "NSPrivacyAccessedAPICategoryFileTimestamp"),
        ("getattrlistat", "NSPrivacyAccessedAPICategoryFileTimestamp"),
        ("stat", "NSPrivacyAccessedAPICategoryFileTimestamp"),
        ("fstat", "NSPrivacyAccessedAPICategoryFileTimestamp"),
        ("fstatat", "NSPrivacyAccessedAPICategoryFileTimestamp"),
        ("lstat", "NSPrivacyAccessedAPICategoryFileTimestamp"),
        // System boot time APIs
        ("systemUptime", "NSPrivacyAccessedAPICategorySystemBootTime"),
        ("mach_absolute_time", "NSPrivacyAccessedAPICategorySystemBootTime"),
        // Disk space APIs
        ("volumeAvailableCapacityKey", "NSPrivacyAccessedAPICategoryDiskSpace"),
        ("volumeAvailableCapacityForImportantUsageKey", "NSPrivacyAccessedAPICategoryDiskSpace"),
        ("volumeAvailableCapacityForOpportunisticUsageKey", "NSPrivacyAccessedAPICategoryDiskSpace"),
        ("volumeTotalCapacityKey", "NSPrivacyAccessedAPICategoryDiskSpace"),
        ("systemFreeSize", "NSPrivacyAccessedAPICategoryDiskSpace"),
        ("systemSize", "NSPrivacyAccessedAPICategoryDiskSpace"),
        ("statfs", "NSPrivacyAccessedAPICategoryDiskSpace"),
        ("statvfs", "NSPrivacyAccessedAPICategoryDiskSpace"),
        ("fstatfs", "NSPrivacyAccessedAPICategoryDiskSpace"),
        ("fstatvfs", "NSPrivacyAccessedAPICategoryDiskSpace"),
        // Active keyboard APIs
        ("activeInputModes", "NSPrivacyAccessedAPICategoryActiveKeyboards"),
        // User defaults APIs
        ("UserDefaults", "NSPrivacyAccessedAPICategoryUserDefaults"),
    ]

    /// The modules an app links with the recorder.
    static let closure = ["LifetraceCore", "LifetraceConcurrency", "LifetraceFormat", "LifetraceRecorder"]

    /// The categories the closure's code uses, with where: identifiers only, comments left out.
    func usedCategories() throws -> [String: String] {
        var used: [String: String] = [:]
        for module in Self.closure {
            let folder = URL(fileURLWithPath: PackagePaths.root).appendingPathComponent("Sources/\(module)")
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                    let words = Set(code.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
                    for (api, category) in Self.requiredReasonAPIs where words.contains(api) {
                        // `stat` names the C function only when called or made: `stat(` / `stat()`.
                        if api == "stat", !code.contains("stat(") { continue }
                        used[category] = used[category] ?? "Sources/\(module)/\(file):\(number + 1): \(api)"
                    }
                }
            }
        }
        return used
    }

    /// The categories `PrivacyInfo.xcprivacy` declares, each with its reasons.
    func declaredCategories() throws -> [String: [String]] {
        let path = PackagePaths.root + "/Sources/LifetraceRecorder/PrivacyInfo.xcprivacy"
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let plist = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        #expect(plist["NSPrivacyTracking"] as? Bool == false)
        #expect((plist["NSPrivacyCollectedDataTypes"] as? [Any])?.isEmpty == true)
        var declared: [String: [String]] = [:]
        for entry in try #require(plist["NSPrivacyAccessedAPITypes"] as? [[String: Any]]) {
            let category = try #require(entry["NSPrivacyAccessedAPIType"] as? String)
            declared[category] = try #require(entry["NSPrivacyAccessedAPITypeReasons"] as? [String])
        }
        return declared
    }

    @Test func theManifestDeclaresEveryRequiredReasonAPITheRecorderUses() throws {
        let used = try usedCategories()
        let declared = try declaredCategories()
        for (category, place) in used {
            #expect(
                declared[category]?.isEmpty == false, "\(place) is on Apple's list but the manifest lacks \(category)")
        }
        for category in declared.keys {
            #expect(used[category] != nil, "the manifest declares \(category), which the recorder does not use")
        }
        // fstat (reading a trace) and FileManager's attributes (listing traces): files in the app's container.
        #expect(declared["NSPrivacyAccessedAPICategoryFileTimestamp"] == ["C617.1"])
    }
}
