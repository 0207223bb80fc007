import LifetraceAnalysis

/// What `compare` compares between two sets of runs, and the observation each run contributes.
///
/// Each trace is one observation (runs are the independent units; calls within a run are not): a handler
/// kind's mean duration in the trace, a task kind's mean duration (tasks that ended), the mean time from launch to
/// the first active scene, a service's mean start-up and shutdown durations, the time in a state; and for exit
/// kinds, the trace's processes that ended that way.
public struct ComparedMetric: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The families of metric.
    public enum Family: String, Sendable, CaseIterable, Comparable {
        /// A handler kind's mean duration per trace (`handler` rows' `mean_ns`).
        case handler
        /// A task kind's mean duration per trace, ended tasks only (`task` rows' `duration_ns`).
        case task
        /// The mean launch time per trace (`process` rows' `launch_ns`).
        case launch
        /// A service's mean start-up per trace, from its start to its readiness (`service` rows' `ready_ns`).
        case readiness
        /// A service's mean shutdown per trace, from its group's request to its stop (`service` rows'
        /// `shutdown_ns`): what an orchestrator's grace period bounds.
        case shutdown
        /// Time in a state per trace (`trace` rows' `<state>_ns`).
        case state
        /// How processes ended (`process` rows' `end`): counts, not durations.
        case exit

        public static func < (lhs: Family, rhs: Family) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// The family.
    public var family: Family
    /// The handler, task kind, service, state or exit kind; empty for launch.
    public var name: String

    /// A metric.
    public init(_ family: Family, _ name: String = "") {
        self.family = family
        self.name = name
    }

    /// `family name`, as outputs print it.
    public var description: String { name.isEmpty ? family.rawValue : "\(family.rawValue) \(name)" }

    /// Whether a rise is a regression that fails `compare`: slower handlers, tasks, launches, service start-ups
    /// and shutdowns, and more
    /// processes ending in a kill or a crash. Time in a state is reported, never failed on: more time in the
    /// background is not worse in itself.
    public var gates: Bool {
        switch family {
        case .handler, .task, .launch, .readiness, .shutdown: true
        case .state: false
        case .exit: Self.badExits.contains(name)
        }
    }

    /// The process ends that are a failure of the app: killed, crashed, or ended without a callback while
    /// running. (More jetsam kills between two builds is a rise in memory use.)
    public static let badExits: Set<String> = [
        ProcessEnd.killedWithBackgroundTask.rawValue, ProcessEnd.killedInBackgroundHandler.rawValue,
        ProcessEnd.crashed.rawValue, ProcessEnd.killedByJetsam.rawValue, ProcessEnd.exitedWithError.rawValue,
        ProcessEnd.endedInForeground.rawValue, ProcessEnd.endedInBackground.rawValue,
    ]

    public static func < (lhs: ComparedMetric, rhs: ComparedMetric) -> Bool {
        (lhs.family, lhs.name) < (rhs.family, rhs.name)
    }
}
