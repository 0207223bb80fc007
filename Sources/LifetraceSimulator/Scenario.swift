public import LifetraceCore

/// A scripted sequence of stimuli, one per documented sequence of the seeds, or a seeded random walk.
public enum Scenario: String, CaseIterable, Sendable {
    /// Tap the icon: launch, connect, foreground, active.
    case coldLaunch = "cold-launch"
    /// Go home, be suspended, come back.
    case backgroundAndReturn = "background-and-return"
    /// A call: active, inactive, active, with no background step.
    case phoneCall = "phone-call"
    /// Control Centre and Notification Centre pulls.
    case controlCentre = "control-centre"
    /// Launched into the background for fetch, push and location; never active.
    case backgroundLaunch = "background-launch"
    /// Suspended, then reclaimed: no callback.
    case terminateFromSuspended = "terminate-from-suspended"
    /// Terminated while running in the background: `applicationWillTerminate`.
    case terminateFromBackground = "terminate-from-background"
    /// A background task ended in time.
    case backgroundTask = "background-task"
    /// A background task that runs out of time; its expiration handler ends it.
    case backgroundTaskExpiry = "background-task-expiry"
    /// iPad windows: a second scene, Slide Over, closing a window.
    case multiWindow = "multi-window"
    /// SwiftUI `scenePhase` per scene and the App aggregate.
    case swiftuiPhases = "swiftui-phases"
    /// A seeded random walk over every stimulus.
    case random

    /// One line for `lifetrace simulate --list`, with the seed passage it follows.
    public var summary: String {
        switch self {
        case .coldLaunch: "tap the icon: launch, connect, foreground, active (Apple: “Managing your app’s life cycle”)"
        case .backgroundAndReturn: "go home, suspend, come back (Apple: “Managing your app’s life cycle”)"
        case .phoneCall:
            "a call: active, inactive, active with no background step (Apple: “Managing your app’s life cycle”)"
        case .controlCentre:
            "pull down Control Centre and Notification Centre (Apple: “Managing your app’s life cycle”)"
        case .backgroundLaunch:
            "launched into the background for fetch, push and location; never active (Apple: “About the background execution sequence”)"
        case .terminateFromSuspended:
            "suspended, then reclaimed for memory: no callback (Apple: “applicationWillTerminate(_:)”)"
        case .terminateFromBackground:
            "terminated while running in the background: applicationWillTerminate (Apple: “applicationWillTerminate(_:)”)"
        case .backgroundTask:
            "a background task begun before long work and ended on time (Apple: “Extending your app’s background execution time”)"
        case .backgroundTaskExpiry:
            "a background task that runs out of time: the expiration handler ends it (Apple: “Extending your app’s background execution time”)"
        case .multiWindow:
            "iPad: a second window, Slide Over, Split View, closing a window (Apple: “Managing your app’s life cycle”)"
        case .swiftuiPhases:
            "SwiftUI scenePhase per scene and the App aggregate, with the first onChange rule (Apple: “ScenePhase”)"
        case .random: "a seeded random walk over every stimulus, for long traces"
        }
    }

    /// The style a scenario is shown in when none is asked for.
    public var defaultStyle: AppStyle {
        self == .swiftuiPhases ? .swiftui : .uikitScenes
    }
}
