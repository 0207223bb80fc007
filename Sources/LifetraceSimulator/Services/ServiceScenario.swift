/// A scripted run of a service process — a server and a queue worker under swift-service-lifecycle's
/// `ServiceGroup`, as `LifetraceServiceLifecycle` records them — under an orchestrator, with its ground truth.
///
/// Budgets are those the service model cites: Kubernetes' grace period (“Pod Lifecycle”:
/// `terminationGracePeriodSeconds`, 30 s by default), which is lifetrace's default `shutdownGrace`, and systemd's
/// stop timeout (“systemd.service”: `TimeoutStopSec=`, `DefaultTimeoutStopSec=` 90 s).
public enum ServiceScenario: String, CaseIterable, Sendable {
    /// Three revisions one after the other, each sent SIGTERM when its successor is ready and draining well within
    /// its grace period.
    case rollingDeploy = "rolling-deploy"
    /// SIGTERM, and a worker drain of 35 to 80 s that completes: within systemd's 90 s, over Kubernetes' 30 s.
    case slowDrain = "slow-drain"
    /// A worker whose `run()` throws at start (its database refuses the connection): the group cancels the server,
    /// the process exits with the error and is restarted after Kubernetes' back-off (10 s, doubling, at most 5 min),
    /// five times.
    case crashLoop = "crash-loop"
    /// SIGTERM, and a worker drain that would take minutes: systemd kills the process with SIGKILL when
    /// `TimeoutStopSec` (90 s) runs out, mid-drain.
    case shutdownOverrun = "shutdown-overrun"

    /// The services of the group, in start order (the group shuts them down in reverse).
    static let services = ["http", "worker"]

    /// How many processes the scenario runs.
    var processCount: Int {
        switch self {
        case .rollingDeploy: 3
        case .crashLoop: 5
        case .slowDrain, .shutdownOverrun: 1
        }
    }

    /// One line for `lifetrace simulate --list`, with the documentation it follows.
    public var summary: String {
        switch self {
        case .rollingDeploy:
            "service: three revisions replaced in turn, SIGTERM and a drain within the grace period (Kubernetes: “Pod Lifecycle”)"
        case .slowDrain:
            "service: a drain of 35–80 s, within systemd's TimeoutStopSec (90 s), over Kubernetes' 30 s grace period (“systemd.service”)"
        case .crashLoop:
            "service: a worker that throws at start, its group cancelled, restarted with back-off five times (Kubernetes: “Pod Lifecycle”)"
        case .shutdownOverrun:
            "service: a drain still running when TimeoutStopSec (90 s) runs out, killed with SIGKILL (“systemd.service”)"
        }
    }

    /// The rules `lifetrace check` must find in the scenario's trace, in the order it reports them, with the
    /// default budgets (a 30 s `shutdownGrace`, a 90 s `serviceReady`) and no slowdown; the same with or without
    /// ground truth.
    ///
    /// A slow drain is over the 30 s grace period (LT091) and nothing else; each of the crash loop's processes has a
    /// service that ended before any shutdown was asked, its group cancelling the other (LT090); a drain killed at
    /// 90 s was over its grace period at its process's end (LT091) and killed during its shutdown (LT093).
    public var expectedRules: [String] {
        switch self {
        case .rollingDeploy: []
        case .slowDrain: ["LT091"]
        case .crashLoop: Array(repeating: "LT090", count: processCount)
        case .shutdownOverrun: ["LT091", "LT093"]
        }
    }

    /// The `process.exit` reason of each process, as ground truth has it: `exit` after a graceful shutdown,
    /// `error` when the group threw (the service library records both), `SIGKILL` for a process its supervisor
    /// killed (only ground truth can say so: the process cannot record its own kill).
    public var exitReasons: [String] {
        switch self {
        case .rollingDeploy, .slowDrain: Array(repeating: "exit", count: processCount)
        case .crashLoop: Array(repeating: "error", count: processCount)
        case .shutdownOverrun: ["SIGKILL"]
        }
    }
}
