import Foundation
public import LifetraceCore

extension TraceHeader.Lifecycle {
    /// The lifecycle of the running process, from its platform, its main bundle's path and the extension point its
    /// Info.plist names: UIKit on iOS, iPadOS, tvOS, visionOS and Mac Catalyst,
    /// WatchKit on watchOS (a WatchKit extension included), AppKit on macOS, an app extension's in an app extension;
    /// `nil` where there is none (Linux).
    public static let current: TraceHeader.Lifecycle? = detect(
        platform: .current, bundlePath: Bundle.main.bundlePath,
        extensionPoint: extensionPoint(infoDictionary: Bundle.main.infoDictionary))

    /// The lifecycle of a process on `platform` whose main bundle is at `bundlePath`, with the extension point its
    /// Info.plist names (`NSExtension`'s `NSExtensionPointIdentifier`), if it names one.
    ///
    /// The bundle layouts, and what each runs under:
    /// - an app (`App.app`): UIKit on iOS, iPadOS, tvOS, visionOS and Mac Catalyst, AppKit on macOS;
    /// - an app extension (`Share.appex`, in an app's `PlugIns`): its host's state, through `NSExtensionContext`'s
    ///   host notifications (Apple, "App Extension Programming Guide");
    /// - a single-target watch app (`App Watch App.app`, watchOS 7 and later): WatchKit, `WKApplication`;
    /// - a WatchKit extension (`App WatchKit Extension.appex`, the code of a watch app made of two targets): a
    ///   watch app, not an app extension. WatchKit posts the same `WKApplication` notifications for it (also for
    ///   `WKExtension`-based apps; Apple, "Working with the watchOS app life cycle"), and its extension point is
    ///   `com.apple.watchkit`. So on watchOS the platform is tested before the `.appex`: only an extension that
    ///   names another extension point (a widget, a notification content extension) follows a host's state.
    static func detect(platform: ApplePlatform, bundlePath: String, extensionPoint: String?) -> TraceHeader.Lifecycle? {
        let isExtensionBundle = bundlePath.hasSuffix(".appex") || bundlePath.hasSuffix(".appex/")
        switch platform {
        case .watchOS:
            if isExtensionBundle, let extensionPoint, extensionPoint != watchKitExtensionPoint { return .appExtension }
            return .watchkit
        case .iOS, .tvOS, .visionOS, .macCatalyst:
            return isExtensionBundle ? .appExtension : .uikit
        case .macOS:
            return isExtensionBundle ? .appExtension : .appkit
        case .other:
            return nil
        }
    }

    /// The extension point of a WatchKit extension (its Info.plist's `NSExtension`, `NSExtensionPointIdentifier`).
    static let watchKitExtensionPoint = "com.apple.watchkit"

    /// The `NSExtensionPointIdentifier` of an Info.plist's `NSExtension` dictionary, if it has one.
    static func extensionPoint(infoDictionary: [String: Any]?) -> String? {
        (infoDictionary?["NSExtension"] as? [String: Any])?["NSExtensionPointIdentifier"] as? String
    }
}
