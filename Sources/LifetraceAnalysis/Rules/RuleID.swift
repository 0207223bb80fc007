/// A rule's stable id: `LT001`... for the catalogue's rules, any string a model declares for its own.
///
/// The rules code checks are named here once; a model's JSON names its rules by their id.
public struct RuleID: StringIdentifier, Comparable {
    /// The id as written: `LT003`.
    public let rawValue: String

    /// An id.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Ids sort as written: `LT001` before `LT010`.
    public static func < (lhs: RuleID, rhs: RuleID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    // MARK: - The rules code checks

    /// LT011: a scene or UI callback before `didFinishLaunching` (not checked on derived traces).
    public static let uiBeforeLaunch: RuleID = "LT011"
    /// LT012: `applicationWillTerminate` while a scene is in the foreground.
    public static let terminateFromForeground: RuleID = "LT012"
    /// LT013: an app event after `applicationWillTerminate` returned.
    public static let eventAfterTerminate: RuleID = "LT013"
    /// LT020: an app-delegate UI callback although the app has a scene manifest.
    public static let appDelegateUIWithManifest: RuleID = "LT020"
    /// LT021: an application notification of a scene-based app that its scenes' states contradict.
    public static let appNotificationAgainstScenes: RuleID = "LT021"
    /// LT030: SwiftUI's App-level phase disagrees with its scenes' phases.
    public static let appPhaseAgainstScenes: RuleID = "LT030"
    /// LT040: `task.end` for a task that is not open.
    public static let taskEndWithoutBegin: RuleID = "LT040"
    /// LT041: a background task never ended.
    public static let taskLeaked: RuleID = "LT041"
    /// LT042: a background task not ended when its expiration handler ran.
    public static let taskNotEndedOnExpiration: RuleID = "LT042"
    /// LT043: a background task over its time in the background.
    public static let taskOverBackgroundTime: RuleID = "LT043"
    /// LT044: a BGTask never completed.
    public static let scheduledTaskNeverCompleted: RuleID = "LT044"
    /// LT045: a BGTask completed long after its time expired.
    public static let scheduledTaskCompletedLate: RuleID = "LT045"
    /// LT052: a BGAppRefreshTask over its time.
    public static let refreshTaskOverTime: RuleID = "LT052"
    /// LT053: launch to the first active scene over the launch budget.
    public static let slowLaunch: RuleID = "LT053"
    /// LT070: an app event while the process is suspended.
    public static let workWhileSuspended: RuleID = "LT070"
    /// LT080: state saved only in `applicationWillTerminate`.
    public static let saveOnlyInTerminate: RuleID = "LT080"
}
