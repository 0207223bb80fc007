public import LifetraceCore

/// A lifecycle mistake the simulator can inject: exactly the ones the seeds warn about.
public enum Fault: String, CaseIterable, Sendable {
    /// State is saved in `applicationWillTerminate` only, never on entering the background (Apple, “Managing your app’s life cycle”).
    case saveInWillTerminateOnly = "save-in-will-terminate-only"
    /// The `didEnterBackground` handler runs past its five seconds; the system kills the app (Apple, “Extending your app’s background execution time”; Apple, “applicationDidEnterBackground(_:)”).
    case slowBackgroundHandler = "slow-background-handler"
    /// A background task is never ended; its expiration handler does not end it either, so the system kills
    /// the app (Apple, “Extending your app’s background execution time”).
    case leakedBackgroundTask = "leaked-background-task"
    /// A background task identifier is passed to `endBackgroundTask` twice (Apple, “Extending your app’s background execution time”).
    case taskEndedTwice = "task-ended-twice"
    /// `sceneDidEnterBackground` arrives without `sceneWillResignActive` before it.
    case backgroundWithoutResign = "background-without-resign"
    /// One-time setup runs by calling `willConnect` on every return to the foreground (Apple, “Managing your app’s life cycle”).
    case setupOnEveryForeground = "setup-on-every-foreground"
    /// App-delegate UI callbacks fire although a scene manifest exists (Apple, “Managing your app’s life cycle”: they never do).
    case appDelegateUIWithManifest = "app-delegate-ui-with-manifest"
    /// The app keeps working (timers fire) while the process should be suspended (Apple, “Managing your app’s life cycle”).
    case workWhileSuspended = "work-while-suspended"
    /// A scene is disconnected while still in the foreground (Apple, “Managing your app’s life cycle”: disconnection comes from background).
    case disconnectInForeground = "disconnect-in-foreground"

    /// One line for `lifetrace simulate --list`.
    public var summary: String {
        switch self {
        case .saveInWillTerminateOnly: "state saved only in applicationWillTerminate, never on entering the background"
        case .slowBackgroundHandler: "didEnterBackground handler runs past 5 s; the system kills the app"
        case .leakedBackgroundTask: "a background task is never ended; it expires and the app is killed"
        case .taskEndedTwice: "endBackgroundTask called twice for one task"
        case .backgroundWithoutResign: "sceneDidEnterBackground without sceneWillResignActive"
        case .setupOnEveryForeground: "scene(_:willConnectTo:) called again on every return to the foreground"
        case .appDelegateUIWithManifest: "app-delegate UI callbacks delivered although a scene manifest exists"
        case .workWhileSuspended: "events (timers) while the process should be suspended"
        case .disconnectInForeground: "a scene disconnected while still in the foreground"
        }
    }

    /// The scenario that shows the fault in its sample trace.
    public var showcase: Scenario {
        switch self {
        case .saveInWillTerminateOnly: .terminateFromBackground
        case .slowBackgroundHandler, .backgroundWithoutResign, .setupOnEveryForeground, .workWhileSuspended:
            .backgroundAndReturn
        case .leakedBackgroundTask, .taskEndedTwice: .backgroundTask
        case .appDelegateUIWithManifest: .backgroundAndReturn
        case .disconnectInForeground: .multiWindow
        }
    }

    /// The styles the fault can occur in (scene faults need scenes; the manifest fault needs a manifest).
    public var styles: [AppStyle] {
        switch self {
        case .backgroundWithoutResign, .setupOnEveryForeground, .appDelegateUIWithManifest, .disconnectInForeground:
            [.uikitScenes]
        default: AppStyle.allCases
        }
    }
}
