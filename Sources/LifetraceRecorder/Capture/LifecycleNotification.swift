public import LifetraceCore

/// The notifications a ``LifecycleCapture`` observes, by the names the frameworks post them under, and the
/// event each becomes. Observing by name needs no UI framework import, so the capture compiles for every
/// platform and app extensions, and is tested on Linux by posting the same names.
///
/// Which of them a capture observes depends on the trace's lifecycle (``observed(for:)``): UIKit posts its
/// `UIApplication` and `UIScene` notifications right after calling the matching delegate method, whether the
/// app has a scene manifest or not (Apple, "Managing your app’s life cycle": in a scene-based app the app
/// delegate's UI methods are not called, but the `UIApplication` notifications are still posted); WatchKit
/// posts `WKApplication` notifications (watchOS 7 and later, also for `WKExtension`-based apps; Apple,
/// "Working with the watchOS app life cycle"); AppKit posts `NSApplication` notifications; an app extension
/// sees its host app's state through `NSExtensionContext`'s host notifications.
public enum LifecycleNotification: String, CaseIterable, Sendable {
    // UIKit (iOS, iPadOS, tvOS, visionOS, Mac Catalyst)
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
    /// `UIApplication.didReceiveMemoryWarningNotification`.
    case applicationDidReceiveMemoryWarning = "UIApplicationDidReceiveMemoryWarningNotification"
    /// `UIApplication.protectedDataWillBecomeUnavailableNotification` (its C name has no `Notification`).
    case applicationProtectedDataWillBecomeUnavailable = "UIApplicationProtectedDataWillBecomeUnavailable"
    /// `UIApplication.protectedDataDidBecomeAvailableNotification` (its C name has no `Notification`).
    case applicationProtectedDataDidBecomeAvailable = "UIApplicationProtectedDataDidBecomeAvailable"
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

    // WatchKit (watchOS)
    /// `WKApplication.didFinishLaunchingNotification` (`WKExtension`'s of the same name).
    case watchApplicationDidFinishLaunching = "WKApplicationDidFinishLaunchingNotification"
    /// `WKApplication.didBecomeActiveNotification`.
    case watchApplicationDidBecomeActive = "WKApplicationDidBecomeActiveNotification"
    /// `WKApplication.willResignActiveNotification`.
    case watchApplicationWillResignActive = "WKApplicationWillResignActiveNotification"
    /// `WKApplication.willEnterForegroundNotification`.
    case watchApplicationWillEnterForeground = "WKApplicationWillEnterForegroundNotification"
    /// `WKApplication.didEnterBackgroundNotification`.
    case watchApplicationDidEnterBackground = "WKApplicationDidEnterBackgroundNotification"

    // AppKit (macOS)
    /// `NSApplication.didFinishLaunchingNotification`.
    case macApplicationDidFinishLaunching = "NSApplicationDidFinishLaunchingNotification"
    /// `NSApplication.didBecomeActiveNotification`.
    case macApplicationDidBecomeActive = "NSApplicationDidBecomeActiveNotification"
    /// `NSApplication.willResignActiveNotification`.
    case macApplicationWillResignActive = "NSApplicationWillResignActiveNotification"
    /// `NSApplication.didHideNotification`.
    case macApplicationDidHide = "NSApplicationDidHideNotification"
    /// `NSApplication.didUnhideNotification`.
    case macApplicationDidUnhide = "NSApplicationDidUnhideNotification"
    /// `NSApplication.willTerminateNotification`.
    case macApplicationWillTerminate = "NSApplicationWillTerminateNotification"
    /// `NSApplication.protectedDataWillBecomeUnavailableNotification` (macOS 12 and later).
    case macApplicationProtectedDataWillBecomeUnavailable =
        "NSApplicationProtectedDataWillBecomeUnavailableNotification"
    /// `NSApplication.protectedDataDidBecomeAvailableNotification` (macOS 12 and later).
    case macApplicationProtectedDataDidBecomeAvailable = "NSApplicationProtectedDataDidBecomeAvailableNotification"

    // App extensions (their host app's state; not on macOS)
    /// `NSExtensionHostDidBecomeActive`.
    case extensionHostDidBecomeActive = "NSExtensionHostDidBecomeActiveNotification"
    /// `NSExtensionHostWillResignActive`.
    case extensionHostWillResignActive = "NSExtensionHostWillResignActiveNotification"
    /// `NSExtensionHostDidEnterBackground`.
    case extensionHostDidEnterBackground = "NSExtensionHostDidEnterBackgroundNotification"
    /// `NSExtensionHostWillEnterForeground`.
    case extensionHostWillEnterForeground = "NSExtensionHostWillEnterForegroundNotification"

    // Foundation (every platform)
    /// `ProcessInfo.thermalStateDidChangeNotification`.
    case thermalStateDidChange = "NSProcessInfoThermalStateDidChangeNotification"

    /// The notifications a capture observes for a trace of `lifecycle` (UIKit's when it is `nil`).
    public static func observed(for lifecycle: TraceHeader.Lifecycle?) -> [LifecycleNotification] {
        let framework: [LifecycleNotification] =
            switch lifecycle ?? .uikit {
            case .uikit:
                [
                    .applicationDidFinishLaunching, .applicationDidBecomeActive, .applicationWillResignActive,
                    .applicationDidEnterBackground, .applicationWillEnterForeground, .applicationWillTerminate,
                    .applicationDidReceiveMemoryWarning, .applicationProtectedDataWillBecomeUnavailable,
                    .applicationProtectedDataDidBecomeAvailable, .sceneWillConnect, .sceneDidActivate,
                    .sceneWillDeactivate, .sceneDidEnterBackground, .sceneWillEnterForeground, .sceneDidDisconnect,
                ]
            case .watchkit:
                [
                    .watchApplicationDidFinishLaunching, .watchApplicationDidBecomeActive,
                    .watchApplicationWillResignActive, .watchApplicationWillEnterForeground,
                    .watchApplicationDidEnterBackground,
                ]
            case .appkit:
                [
                    .macApplicationDidFinishLaunching, .macApplicationDidBecomeActive, .macApplicationWillResignActive,
                    .macApplicationDidHide, .macApplicationDidUnhide, .macApplicationWillTerminate,
                    .macApplicationProtectedDataWillBecomeUnavailable, .macApplicationProtectedDataDidBecomeAvailable,
                ]
            case .appExtension:
                [
                    .extensionHostDidBecomeActive, .extensionHostWillResignActive, .extensionHostDidEnterBackground,
                    .extensionHostWillEnterForeground,
                ]
            case .service:
                // No framework posts a service's lifecycle: LifetraceServiceLifecycle records it.
                []
            }
        return framework + [.thermalStateDidChange]
    }

    /// The event the notification is recorded as.
    public var eventKind: EventKind {
        switch self {
        case .applicationDidFinishLaunching, .watchApplicationDidFinishLaunching, .macApplicationDidFinishLaunching:
            .appDidFinishLaunching
        case .applicationDidBecomeActive, .watchApplicationDidBecomeActive, .macApplicationDidBecomeActive,
            .extensionHostDidBecomeActive:
            .appDidBecomeActive
        case .applicationWillResignActive, .watchApplicationWillResignActive, .macApplicationWillResignActive,
            .extensionHostWillResignActive:
            .appWillResignActive
        case .applicationDidEnterBackground, .watchApplicationDidEnterBackground, .extensionHostDidEnterBackground:
            .appDidEnterBackground
        case .applicationWillEnterForeground, .watchApplicationWillEnterForeground, .extensionHostWillEnterForeground:
            .appWillEnterForeground
        case .applicationWillTerminate, .macApplicationWillTerminate: .appWillTerminate
        case .applicationDidReceiveMemoryWarning: .appDidReceiveMemoryWarning
        case .applicationProtectedDataWillBecomeUnavailable, .macApplicationProtectedDataWillBecomeUnavailable:
            .systemProtectedDataWillBecomeUnavailable
        case .applicationProtectedDataDidBecomeAvailable, .macApplicationProtectedDataDidBecomeAvailable:
            .systemProtectedDataDidBecomeAvailable
        case .macApplicationDidHide: .appDidHide
        case .macApplicationDidUnhide: .appDidUnhide
        case .sceneWillConnect: .sceneWillConnect
        case .sceneDidActivate: .sceneDidBecomeActive
        case .sceneWillDeactivate: .sceneWillResignActive
        case .sceneDidEnterBackground: .sceneDidEnterBackground
        case .sceneWillEnterForeground: .sceneWillEnterForeground
        case .sceneDidDisconnect: .sceneDidDisconnect
        case .thermalStateDidChange: .systemThermalState
        }
    }

    /// Whether the notification's object is the scene.
    var isSceneNotification: Bool { eventKind.layer == .scene }

    /// Whether the events buffered up to it must be on disk before its observer returns: after resigning
    /// active, entering the background or hiding, the app may be suspended and then killed without another
    /// callback; after terminating it is gone; before protected data becomes unavailable the device is locking.
    var writesDurably: Bool {
        switch eventKind {
        case .appWillResignActive, .appDidEnterBackground, .appWillTerminate, .appDidHide, .sceneWillResignActive,
            .sceneDidEnterBackground, .systemProtectedDataWillBecomeUnavailable:
            true
        default:
            false
        }
    }

    /// `ProcessInfo.ThermalState`'s name for its raw value: the `reason` of `system.thermalState`.
    static func thermalStateName(_ raw: Int) -> String {
        switch raw {
        case 0: "nominal"
        case 1: "fair"
        case 2: "serious"
        case 3: "critical"
        default: "unknown"
        }
    }
}
