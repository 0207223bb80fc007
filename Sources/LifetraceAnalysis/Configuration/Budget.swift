/// The name of a budget the analyzer measures against: the ones below, and any a lifecycle model's handler or
/// state budgets name (`Schemas/models/*.json`). `lifetrace.json` sets them by these names.
public struct Budget: StringIdentifier {
    /// The name, as `lifetrace.json` and the models spell it.
    public let rawValue: String

    /// A budget named `rawValue`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `didEnterBackground`: how long the background handler may run (`applicationDidEnterBackground(_:)`:
    /// "your implementation of this method has approximately five seconds"). Default 5 s.
    public static let didEnterBackground: Budget = "didEnterBackground"
    /// `willTerminate`: how long `applicationWillTerminate(_:)` may run ("approximately five seconds").
    /// Default 5 s.
    public static let willTerminate: Budget = "willTerminate"
    /// `backgroundTask`: a `UIApplication` background task's time in the background (`backgroundTimeRemaining`
    /// on current iOS). Default 30 s.
    public static let backgroundTask: Budget = "backgroundTask"
    /// `refreshTask`: a `BGAppRefreshTask`'s time (WWDC 2019 session 707, "Advances in App Background
    /// Execution"). Default 30 s.
    public static let refreshTask: Budget = "refreshTask"
    /// `expirationGrace`: how long after its expiration a task may still end or complete (the expiration
    /// handler itself needs a moment). Default 1 s.
    public static let expirationGrace: Budget = "expirationGrace"
    /// `launch`: from a user's launch to the first active scene. Default 5 s.
    public static let launch: Budget = "launch"
    /// `inactiveEpisode`: one stay in the inactive state. Off by default: a phone call may last an hour.
    public static let inactiveEpisode: Budget = "inactiveEpisode"
    /// `shutdownGrace`: how long a service may take to stop once asked to shut down, before its orchestrator
    /// kills it. Default 30 s: Kubernetes' `terminationGracePeriodSeconds` (“Pod Lifecycle”, “Termination of
    /// Pods”); systemd's `TimeoutStopSec` defaults to 90 s (“systemd.service”, `DefaultTimeoutStopSec=`).
    public static let shutdownGrace: Budget = "shutdownGrace"
    /// `serviceReady`: from a service's start to its readiness. Default 90 s: systemd's `TimeoutStartSec`
    /// (“systemd.service”: a `Type=notify` service that has not said `READY=1` by then is considered failed).
    public static let serviceReady: Budget = "serviceReady"
}
