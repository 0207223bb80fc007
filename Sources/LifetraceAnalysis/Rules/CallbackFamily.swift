public import LifetraceCore

/// The life-cycle callbacks a trace's platform has, which a finding's title names (``Rule/titles``): a UIKit
/// app with scenes has `sceneDidEnterBackground(_:)`, one without, and a watchOS app, have
/// `applicationDidEnterBackground`, an app extension its host's notifications.
public enum CallbackFamily: String, Sendable, Hashable, CaseIterable {
    /// A UIKit app with a scene manifest (SwiftUI's included): `UISceneDelegate`'s methods.
    case scene
    /// A UIKit app without a scene manifest: `UIApplicationDelegate`'s methods.
    case appDelegate = "app-delegate"
    /// A watchOS app: `WKApplicationDelegate`'s methods (`WKExtensionDelegate`'s before watchOS 7).
    case watchKit = "watchkit"
    /// A macOS app: `NSApplicationDelegate`'s methods.
    case appKit = "appkit"
    /// An app extension: `NSExtensionContext`'s notifications of its host's state.
    case appExtension = "app-extension"
    /// A service process: its services' `run()` under a service group.
    case service

    /// The family of a trace with `header`: by its lifecycle, and for UIKit by its scene manifest (a header that
    /// says nothing of one is taken as a scene-based app, UIKit's default for new apps).
    public init(header: TraceHeader?) {
        switch header.followedLifecycle {
        case .uikit: self = header?.sceneManifest == false ? .appDelegate : .scene
        case .watchkit: self = .watchKit
        case .appkit: self = .appKit
        case .appExtension: self = .appExtension
        case .service: self = .service
        }
    }

    /// The titles a model's rule declares by family (`titles` in `Schemas/models/*.json`), `[:]` when it declares
    /// none; `nil` when `json` is not an object of known families' strings.
    static func titles(_ json: JSONValue?) -> [CallbackFamily: String]? {
        guard let json else { return [:] }
        guard case let .object(members) = json else { return nil }
        var titles: [CallbackFamily: String] = [:]
        for (key, value) in members {
            guard let family = CallbackFamily(rawValue: key), let title = value.stringValue else { return nil }
            titles[family] = title
        }
        return titles
    }
}
