public import LifetraceCore

/// The UIKit notifications a ``LifecycleCapture`` observes, by the names UIKit posts them under, and the event
/// each becomes. Observing by name needs no UIKit import, so the capture compiles and is tested on Linux by
/// posting the same names.
///
/// UIKit posts each of them right after calling the matching delegate method, whether the app has a scene
/// manifest or not (Apple, "Managing your app's life cycle": in a scene-based app the app delegate's UI
/// methods are not called, but the `UIApplication` notifications are still posted).
public enum LifecycleNotification: String, CaseIterable, Sendable {
    /// `UIApplication.didFinishLaunchingNotification`.
    case applicationDidFinishLaunching = "UIApplicationDidFinishLaunchingNotification"
    /// `UIApplication.didBecomeActiveNotification`.
    case applicationDidBecomeActive = "UIApplicationDidBecomeActiveNotification"
    /// `UIApplication.willResignActiveNotification`.
    case applicationWillResignActive = "UIApplicationWillResignActiveNotification"
    /// `UIApplication.didEnterBackgroundNotification`.
    case applicationDidEnterBackground = "UIApplicationDidEnterBackgroundNotification"
    /// `UIApplication.willEnterForegroundNotification`.
    case applicationWillEnterForeground = "UIApplicationWillEnterForegroundNotification"
    /// `UIApplication.willTerminateNotification`.
    case applicationWillTerminate = "UIApplicationWillTerminateNotification"
    /// `UIScene.willConnectNotification`.
    case sceneWillConnect = "UISceneWillConnectNotification"
    /// `UIScene.didActivateNotification`.
    case sceneDidActivate = "UISceneDidActivateNotification"
    /// `UIScene.willDeactivateNotification`.
    case sceneWillDeactivate = "UISceneWillDeactivateNotification"
    /// `UIScene.didEnterBackgroundNotification`.
    case sceneDidEnterBackground = "UISceneDidEnterBackgroundNotification"
    /// `UIScene.willEnterForegroundNotification`.
    case sceneWillEnterForeground = "UISceneWillEnterForegroundNotification"
    /// `UIScene.didDisconnectNotification`.
    case sceneDidDisconnect = "UISceneDidDisconnectNotification"

    /// The event the notification is recorded as.
    public var eventKind: EventKind {
        switch self {
        case .applicationDidFinishLaunching: .appDidFinishLaunching
        case .applicationDidBecomeActive: .appDidBecomeActive
        case .applicationWillResignActive: .appWillResignActive
        case .applicationDidEnterBackground: .appDidEnterBackground
        case .applicationWillEnterForeground: .appWillEnterForeground
        case .applicationWillTerminate: .appWillTerminate
        case .sceneWillConnect: .sceneWillConnect
        case .sceneDidActivate: .sceneDidBecomeActive
        case .sceneWillDeactivate: .sceneWillResignActive
        case .sceneDidEnterBackground: .sceneDidEnterBackground
        case .sceneWillEnterForeground: .sceneWillEnterForeground
        case .sceneDidDisconnect: .sceneDidDisconnect
        }
    }

    /// Whether the notification's object is the scene.
    var isSceneNotification: Bool { eventKind.layer == .scene }

    /// What the recorder writes out after recording it: the app may be suspended soon after resigning active
    /// or entering the background, and is gone after terminating.
    var flush: FlushUrgency {
        switch self {
        case .applicationWillResignActive, .applicationDidEnterBackground, .sceneWillDeactivate,
            .sceneDidEnterBackground:
            .soon
        case .applicationWillTerminate: .now
        default: .none
        }
    }

    enum FlushUrgency {
        case none, soon, now
    }

    /// The launch reason the launch options of `application(_:didFinishLaunchingWithOptions:)` (the
    /// notification's `userInfo`) show, when they show one; `nil` for a launch without options, which may be
    /// the user's or the system's.
    static func launchReason(optionKeys: [String]) -> String? {
        let reasons: [(key: String, reason: String)] = [
            ("UIApplicationLaunchOptionsRemoteNotificationKey", "push"),
            ("UIApplicationLaunchOptionsLocationKey", "location"),
            ("UIApplicationLaunchOptionsURLKey", "url"),
            ("UIApplicationLaunchOptionsShortcutItemKey", "shortcut"),
            ("UIApplicationLaunchOptionsUserActivityDictionaryKey", "user-activity"),
            ("UIApplicationLaunchOptionsBluetoothCentralsKey", "bluetooth"),
            ("UIApplicationLaunchOptionsBluetoothPeripheralsKey", "bluetooth"),
        ]
        return reasons.first { optionKeys.contains($0.key) }?.reason
    }
}
