import LifetraceCore
import Testing

@testable import LifetraceRecorder

/// The lifecycle a trace declares, for every bundle layout an Apple process can have: which notifications the
/// capture observes and which model `lifetrace check` judges it by. The layouts and their extension points are
/// those of Apple's "App Extension Programming Guide" and "Working with the watchOS app life cycle".
@Suite struct LifecycleDetectionTests {
    struct Layout: CustomStringConvertible, Sendable {
        var description: String
        var platform: ApplePlatform
        var bundlePath: String
        var extensionPoint: String?
        var expected: TraceHeader.Lifecycle?
    }

    static let layouts: [Layout] = [
        Layout(
            description: "iOS app", platform: .iOS,
            bundlePath: "/private/var/containers/Bundle/Application/A1B2/Shop.app", expected: .uikit),
        Layout(
            description: "iOS app extension (share)", platform: .iOS,
            bundlePath: "/private/var/containers/Bundle/Application/A1B2/Shop.app/PlugIns/Share.appex",
            extensionPoint: "com.apple.share-services", expected: .appExtension),
        Layout(
            description: "iOS widget extension, path with a trailing slash", platform: .iOS,
            bundlePath: "/var/containers/Bundle/Application/A1B2/Shop.app/PlugIns/Widgets.appex/",
            extensionPoint: "com.apple.widgetkit-extension", expected: .appExtension),
        Layout(
            description: "tvOS app", platform: .tvOS, bundlePath: "/var/containers/Bundle/Application/C3/TV.app",
            expected: .uikit),
        Layout(
            description: "tvOS top shelf extension", platform: .tvOS,
            bundlePath: "/var/containers/Bundle/Application/C3/TV.app/PlugIns/TopShelf.appex",
            extensionPoint: "com.apple.tv-top-shelf", expected: .appExtension),
        Layout(
            description: "visionOS app", platform: .visionOS,
            bundlePath: "/var/containers/Bundle/Application/D4/Vision.app", expected: .uikit),
        Layout(
            description: "single-target watch app", platform: .watchOS,
            bundlePath: "/var/containers/Bundle/Application/E5/Shop Watch App.app", expected: .watchkit),
        Layout(
            description: "WatchKit extension of a two-target watch app", platform: .watchOS,
            bundlePath:
                "/var/containers/Bundle/Application/E5/Shop WatchKit App.app/PlugIns/Shop WatchKit Extension.appex",
            extensionPoint: "com.apple.watchkit", expected: .watchkit),
        Layout(
            description: "WatchKit extension whose Info.plist could not be read", platform: .watchOS,
            bundlePath:
                "/var/containers/Bundle/Application/E5/Shop WatchKit App.app/PlugIns/Shop WatchKit Extension.appex",
            extensionPoint: nil, expected: .watchkit),
        Layout(
            description: "watchOS widget extension", platform: .watchOS,
            bundlePath: "/var/containers/Bundle/Application/E5/Shop Watch App.app/PlugIns/Complications.appex",
            extensionPoint: "com.apple.widgetkit-extension", expected: .appExtension),
        Layout(description: "macOS app", platform: .macOS, bundlePath: "/Applications/Shop.app", expected: .appkit),
        Layout(
            description: "macOS app extension", platform: .macOS,
            bundlePath: "/Applications/Shop.app/Contents/PlugIns/Finder Sync.appex",
            extensionPoint: "com.apple.FinderSync", expected: .appExtension),
        Layout(
            description: "Mac Catalyst app", platform: .macCatalyst, bundlePath: "/Applications/Shop.app",
            expected: .uikit),
        Layout(
            description: "Mac Catalyst app extension", platform: .macCatalyst,
            bundlePath: "/Applications/Shop.app/Contents/PlugIns/Share.appex",
            extensionPoint: "com.apple.share-services", expected: .appExtension),
        Layout(description: "Linux service", platform: .other, bundlePath: "/usr/local/bin", expected: nil),
        Layout(
            description: "Linux, a directory named like an extension", platform: .other,
            bundlePath: "/srv/odd.appex", extensionPoint: nil, expected: nil),
    ]

    @Test(arguments: layouts)
    func eachBundleLayoutGetsItsLifecycle(layout: Layout) {
        let detected = TraceHeader.Lifecycle.detect(
            platform: layout.platform, bundlePath: layout.bundlePath,
            extensionPoint: layout.extensionPoint)
        #expect(detected == layout.expected)
    }

    /// A WatchKit extension's capture observes WatchKit's notifications, not the extension host's.
    @Test func aWatchKitExtensionObservesWatchKitsNotifications() throws {
        let detected = try #require(
            TraceHeader.Lifecycle.detect(
                platform: .watchOS, bundlePath: "/x/Shop WatchKit App.app/PlugIns/Shop WatchKit Extension.appex",
                extensionPoint: "com.apple.watchkit"))
        let observed = LifecycleNotification.observed(for: detected).map(\.rawValue)
        #expect(observed.contains("WKApplicationDidBecomeActiveNotification"))
        #expect(!observed.contains { $0.hasPrefix("NSExtensionHost") })
    }

    /// The extension point is read from the Info.plist's `NSExtension` dictionary, and only from there.
    @Test func theExtensionPointIsReadFromTheInfoPlist() {
        typealias Lifecycle = TraceHeader.Lifecycle
        #expect(
            Lifecycle.extensionPoint(infoDictionary: [
                "CFBundleIdentifier": "com.example.shop.watchkitextension",
                "NSExtension": [
                    "NSExtensionPointIdentifier": "com.apple.watchkit",
                    "NSExtensionAttributes": ["WKAppBundleIdentifier": "com.example.shop.watchkitapp"],
                ],
            ]) == "com.apple.watchkit")
        #expect(Lifecycle.extensionPoint(infoDictionary: ["CFBundleIdentifier": "com.example.shop"]) == nil)
        #expect(Lifecycle.extensionPoint(infoDictionary: ["NSExtensionPointIdentifier": "com.apple.watchkit"]) == nil)
        #expect(Lifecycle.extensionPoint(infoDictionary: ["NSExtension": "com.apple.watchkit"]) == nil)
        #expect(Lifecycle.extensionPoint(infoDictionary: nil) == nil)
    }
}
