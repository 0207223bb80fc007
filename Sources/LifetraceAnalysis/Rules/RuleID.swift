/// A rule's stable id: `LT001`... for the catalogue's rules, any string a model declares for its own.
///
/// Every id the catalogue declares or code reports is declared here, once, as a constant (``catalogued`` lists
/// them): the catalogue and the analyzer name rules by these constants, so a misspelt id does not compile. An id
/// read from a file or the command line is made with ``init(rawValue:)``; a model's JSON names its rules by their
/// ids, checked when the model loads.
public struct RuleID: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The id as written: `LT003`.
    public let rawValue: String

    /// The id `rawValue`, as a file or the command line spells it.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The id as written.
    public var description: String { rawValue }

    /// Ids sort as written: `LT001` before `LT010`.
    public static func < (lhs: RuleID, rhs: RuleID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    // MARK: - Scenes and the app

    /// LT001: `sceneDidBecomeActive` (or the app's) not from the foreground-inactive state.
    public static let activeNotFromInactive = RuleID(rawValue: "LT001")
    /// LT002: `sceneWillResignActive` (or the app's) not from the active state.
    public static let resignNotFromActive = RuleID(rawValue: "LT002")
    /// LT003: `sceneDidEnterBackground` without `sceneWillResignActive`.
    public static let backgroundWithoutResign = RuleID(rawValue: "LT003")
    /// LT004: `sceneWillEnterForeground` (or the app's) not from the background.
    public static let foregroundNotFromBackground = RuleID(rawValue: "LT004")
    /// LT005: `sceneDidDisconnect` not from the background.
    public static let disconnectNotFromBackground = RuleID(rawValue: "LT005")
    /// LT006: a scene callback without a live connection.
    public static let sceneCallbackWithoutConnection = RuleID(rawValue: "LT006")
    /// LT007: `scene(_:willConnectTo:options:)` again for a scene still connected.
    public static let repeatedConnect = RuleID(rawValue: "LT007")
    /// LT010: the launch callbacks twice in one process.
    public static let repeatedLaunch = RuleID(rawValue: "LT010")
    /// LT011: a scene or UI callback before `didFinishLaunching` (not checked on derived traces).
    public static let uiBeforeLaunch = RuleID(rawValue: "LT011")
    /// LT012: `applicationWillTerminate` while a scene is in the foreground.
    public static let terminateFromForeground = RuleID(rawValue: "LT012")
    /// LT013: an app event after `applicationWillTerminate` returned.
    public static let eventAfterTerminate = RuleID(rawValue: "LT013")
    /// LT020: an app-delegate UI callback although the app has a scene manifest.
    public static let appDelegateUIWithManifest = RuleID(rawValue: "LT020")
    /// LT021: an application notification of a scene-based app that its scenes' states contradict.
    public static let appNotificationAgainstScenes = RuleID(rawValue: "LT021")
    /// LT030: SwiftUI's App-level phase disagrees with its scenes' phases.
    public static let appPhaseAgainstScenes = RuleID(rawValue: "LT030")
    /// LT031: a SwiftUI scene's phase out of order.
    public static let scenePhaseOutOfOrder = RuleID(rawValue: "LT031")

    // MARK: - Background tasks

    /// LT040: `task.end` for a task that is not open.
    public static let taskEndWithoutBegin = RuleID(rawValue: "LT040")
    /// LT041: a background task never ended.
    public static let taskLeaked = RuleID(rawValue: "LT041")
    /// LT042: a background task not ended when its expiration handler ran.
    public static let taskNotEndedOnExpiration = RuleID(rawValue: "LT042")
    /// LT043: a background task over its time in the background.
    public static let taskOverBackgroundTime = RuleID(rawValue: "LT043")
    /// LT044: a BGTask never completed.
    public static let scheduledTaskNeverCompleted = RuleID(rawValue: "LT044")
    /// LT045: a BGTask completed long after its time expired.
    public static let scheduledTaskCompletedLate = RuleID(rawValue: "LT045")

    // MARK: - Budgets

    /// LT050: a `didEnterBackground` handler over its five seconds.
    public static let slowBackgroundHandler = RuleID(rawValue: "LT050")
    /// LT051: an `applicationWillTerminate` handler over its five seconds.
    public static let slowTerminateHandler = RuleID(rawValue: "LT051")
    /// LT052: a BGAppRefreshTask over its time.
    public static let refreshTaskOverTime = RuleID(rawValue: "LT052")
    /// LT053: launch to the first active scene over the launch budget.
    public static let slowLaunch = RuleID(rawValue: "LT053")
    /// LT054: one stay in the inactive state over its budget.
    public static let longInactiveEpisode = RuleID(rawValue: "LT054")

    // MARK: - The process

    /// LT070: an app event while the process is suspended.
    public static let workWhileSuspended = RuleID(rawValue: "LT070")
    /// LT080: state saved only in `applicationWillTerminate`.
    public static let saveOnlyInTerminate = RuleID(rawValue: "LT080")

    // MARK: - Services

    /// LT090: a service ended on its own, before any shutdown was asked.
    public static let serviceEndedUnasked = RuleID(rawValue: "LT090")
    /// LT091: a service's shutdown over its grace period (declared by the service model, also checked in code at
    /// the process's end).
    public static let shutdownOverGrace = RuleID(rawValue: "LT091")
    /// LT092: a service's events after it stopped (declared by the service model, also checked in code).
    public static let serviceWorkAfterStop = RuleID(rawValue: "LT092")
    /// LT093: the process killed during its shutdown.
    public static let killedDuringShutdown = RuleID(rawValue: "LT093")
    /// LT094: a service ready later after its start than its readiness budget.
    public static let slowServiceReadiness = RuleID(rawValue: "LT094")
    /// LT095: a shutdown request or signal never acted on.
    public static let shutdownNotActedOn = RuleID(rawValue: "LT095")
    /// LT097: a service group's shutdown out of its order: a service asked before one started after it, or
    /// while the one asked before it had not returned.
    public static let serviceShutdownOutOfOrder = RuleID(rawValue: "LT097")

    /// Every id declared above, in id order: each is a rule of ``RuleCatalog`` (declared there, or by a built-in
    /// model for its own lifecycle).
    public static let catalogued: [RuleID] = [
        activeNotFromInactive, resignNotFromActive, backgroundWithoutResign, foregroundNotFromBackground,
        disconnectNotFromBackground, sceneCallbackWithoutConnection, repeatedConnect, repeatedLaunch, uiBeforeLaunch,
        terminateFromForeground, eventAfterTerminate, appDelegateUIWithManifest, appNotificationAgainstScenes,
        appPhaseAgainstScenes, scenePhaseOutOfOrder, taskEndWithoutBegin, taskLeaked, taskNotEndedOnExpiration,
        taskOverBackgroundTime, scheduledTaskNeverCompleted, scheduledTaskCompletedLate, slowBackgroundHandler,
        slowTerminateHandler, refreshTaskOverTime, slowLaunch, longInactiveEpisode, workWhileSuspended,
        saveOnlyInTerminate, serviceEndedUnasked, shutdownOverGrace, serviceWorkAfterStop, killedDuringShutdown,
        slowServiceReadiness, shutdownNotActedOn, serviceShutdownOutOfOrder,
    ]
}
