public import LifetraceCore
public import LifetraceFormat

/// Time spent in each state, in nanoseconds.
public struct StateTimes: Sendable, Hashable {
    /// In the foreground and interactive.
    public var active: Int64 = 0
    /// In the foreground, not receiving events.
    public var inactive: Int64 = 0
    /// In the background and running.
    public var background: Int64 = 0
    /// Suspended (inferred, or from ground truth).
    public var suspended: Int64 = 0

    /// Creates zero times.
    public init() {}

    /// Adds the times of `other`, saturating: times of several scenes together may exceed the trace's span,
    /// and a trace may span nearly all of the 64-bit range.
    mutating func add(_ other: StateTimes) {
        func sum(_ a: Int64, _ b: Int64) -> Int64 {
            let (total, overflow) = a.addingReportingOverflow(b)
            return overflow ? (b > 0 ? .max : .min) : total
        }
        active = sum(active, other.active)
        inactive = sum(inactive, other.inactive)
        background = sum(background, other.background)
        suspended = sum(suspended, other.suspended)
    }

    /// Adds `elapsed` to the time `accounting` counts it as (nothing for `unattached`). Every field is added to,
    /// with a mask, so the accounting of a state change costs no branch: the states events move through
    /// follow no pattern a predictor could learn. (The stretches of one instance or process never overlap, so
    /// their sum stays within the trace's span and cannot overflow.)
    @inline(__always)
    mutating func add(_ elapsed: Int64, as accounting: ActivationState) {
        let state = accounting.rawValue
        active &+= elapsed & (0 &- Int64(state == ActivationState.active.rawValue ? 1 : 0))
        inactive &+= elapsed & (0 &- Int64(state == ActivationState.inactive.rawValue ? 1 : 0))
        background &+= elapsed & (0 &- Int64(state == ActivationState.background.rawValue ? 1 : 0))
    }
}

/// How a process ended, in the spirit of MetricKit's exit categories.
public enum ProcessEnd: String, Sendable, Hashable, CaseIterable, BitwiseCopyable {
    /// `applicationWillTerminate` ran: terminated while running in the background.
    case cleanTerminate = "clean-terminate"
    /// Ended while suspended: memory reclaimed, swiped away, rebooted. No callback (Apple, “Managing your app’s life cycle”).
    case terminatedWhileSuspended = "terminated-while-suspended"
    /// Ended with a background task still open or expired: a background-task assertion timeout.
    case killedWithBackgroundTask = "killed-with-background-task"
    /// Ended while a `didEnterBackground` handler overran its budget: killed by the watchdog.
    case killedInBackgroundHandler = "killed-in-background-handler"
    /// The trace holds the exit, and its reason is a crash: an uncaught exception, an abort, a signal a fault
    /// raises (`SIGSEGV`, `SIGBUS`, `SIGILL`, `SIGTRAP`, `SIGFPE`, `SIGSYS`, `SIGABRT`, `SIGPIPE`). What it left
    /// open ended with it: no task it had begun is a leak.
    case crashed = "crashed"
    /// The trace holds the exit, and its reason is the kernel's memory-pressure kill (`jetsam`, `jetsam-CAUSE`).
    /// What it left open ended with it: no task it had begun is a leak.
    case killedByJetsam = "killed-by-jetsam"
    /// The trace holds the exit, and the process recorded it itself with reason `exit`: its work returned and it
    /// ended on its own, as a service process does when its service group's run returns (LifetraceServiceLifecycle
    /// records it so).
    case exited = "exited"
    /// The trace holds the exit, and the process recorded it itself with reason `error`: its work ended by throwing,
    /// as a service group does when a service fails.
    case exitedWithError = "exited-with-error"
    /// Ended in the foreground without a callback: a crash or a watchdog kill.
    case endedInForeground = "ended-in-foreground"
    /// Ended while running in the background, without a callback.
    case endedInBackground = "ended-in-background"
    /// The trace ends while the process still runs (or is suspended): nothing is known of its end.
    case traceEnded = "trace-ended"
}

/// One process of a trace, from launch to end.
public struct ProcessSummary: Sendable, Hashable {
    /// The launch time (the first event's time when the trace has no `process.launch`).
    public var launchT: Int64
    /// The launch reason, if the trace says.
    public var launchReason: String?
    /// The time of the process's last event.
    public var lastT: Int64
    /// When a scene (or the app) first became active, if it did.
    public var firstActiveT: Int64?
    /// How it ended.
    public var end: ProcessEnd
    /// Why the classification was made.
    public var endBasis: String
    /// Time in each state. A process that ended silently while suspended counts as suspended until the next
    /// launch: the trace cannot tell when it died.
    public var times: StateTimes
}

/// An interval the process was suspended, and why lifetrace thinks so.
public struct SuspensionInterval: Sendable, Hashable {
    /// Start.
    public var start: Int64
    /// End (the next sign of life, or the process's end).
    public var end: Int64
    /// `ground truth`, `heartbeats stopped`, `idle in the background`, `the system logged it`, or, ending in
    /// a new launch, `idle in the background, then a new launch` (an upper bound: the process died silently
    /// at an unknown time).
    public var basis: String
}

/// The time of a trace's first and last events.
public struct TimeSpan: Sendable, Hashable {
    /// The first event's time.
    public var first: Int64
    /// The last event's time.
    public var last: Int64

    /// A span.
    public init(first: Int64, last: Int64) {
        self.first = first
        self.last = last
    }
}

/// The time one scene (or the app, without scenes) spent in each state.
public struct SceneTimes: Sendable, Hashable {
    /// The scene's id (`app` for the app-level UI).
    public var scene: String
    /// Its time in each state.
    public var times: StateTimes

    /// Times of a scene.
    public init(scene: String, times: StateTimes) {
        self.scene = scene
        self.times = times
    }
}

/// One handler's duration: a callback event that carried `dur` (or the `handler.return` that brought it).
public struct HandlerDuration: Sendable, Hashable {
    /// The callback's event name.
    public var name: String
    /// Its scene, if any.
    public var scene: String?
    /// How long the handler took, in nanoseconds.
    public var dur: Int64
    /// The event's index in the trace.
    public var index: Int

    /// A handler's duration.
    public init(name: String, scene: String?, dur: Int64, index: Int) {
        self.name = name
        self.scene = scene
        self.dur = dur
        self.index = index
    }
}

/// Everything one pass over a trace found.
public struct AnalysisResult: Sendable {
    /// The trace's file.
    public var file: String
    /// The trace's header.
    public var header: TraceHeader?
    /// The events read.
    public var eventCount: Int
    /// The time of the first and last events.
    public var span: TimeSpan?
    /// The findings, in event order.
    public var findings: [Finding]
    /// Per process, the first ``TraceAnalyzer/keptDetails`` of them.
    public var processes: [ProcessSummary]
    /// The number of processes.
    public var processCount: Int
    /// How many processes ended each way.
    public var endCounts: [ProcessEnd: Int]
    /// Time in each state, over every process. Suspended time is an estimate when processes ended silently
    /// while suspended (``silentExits``); per process and on the timeline such a process stays suspended
    /// until the next launch.
    public var totals: StateTimes
    /// Per scene (or `app` without scenes): time in each state.
    public var scenes: [SceneTimes]
    /// The suspension intervals, the first ``TraceAnalyzer/keptDetails`` of them.
    public var suspensions: [SuspensionInterval]
    /// The number of suspension intervals.
    public var suspensionCount: Int
    /// Whether suspension came from ground-truth events rather than inference.
    public var suspensionFromGroundTruth: Bool
    /// How the suspended total accounts for silent exits while suspended.
    public var silentExits: SilentExitEstimate
    /// The five longest handlers, longest first.
    public var longestHandlers: [HandlerDuration]
    /// What reading the trace warned of: a truncated end (the writer was killed), skipped records. Every
    /// output carries them, so a damaged trace never passes for a whole one.
    public var inputWarnings: [TraceWarning] = []

    /// Findings counted but not kept, by rule: past ``TraceAnalyzer/keptFindingsPerRule`` of a rule, a trace
    /// keeps only the count, so memory stays bounded whatever the trace.
    public var omittedFindings: [OmittedFindings] = []

    /// For a trace that follows the service lifecycle, each service's time starting, running and stopping (over
    /// the processes that ran it), which a service process reports instead of ``totals`` (zero for it: a service
    /// has no foreground, background or suspension); `nil` for any other trace.
    public var services: [ServiceTime]?

    /// The sum of ``services``' times, `nil` for a trace that does not follow the service lifecycle.
    public var serviceTotals: ServiceTimes? {
        services.map { $0.reduce(into: ServiceTimes()) { $0.add($1.times) } }
    }

    /// The number of findings of `severity`, those not kept included.
    public func count(_ severity: Severity) -> Int {
        findings.filter { $0.severity == severity }.count
            + omittedFindings.filter { $0.severity == severity }.reduce(0) { $0 + $1.count }
    }
}

/// The findings of one rule past the number a result keeps: counted, not kept.
public struct OmittedFindings: Sendable, Hashable {
    /// The rule.
    public var rule: Rule
    /// Its severity after configuration.
    public var severity: Severity
    /// How many findings of it were not kept.
    public var count: Int
}
