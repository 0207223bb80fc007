import LifetraceCore
import LifetraceFormat

/// When the running process was suspended, from the best evidence the trace has, and how much of the time
/// counted suspended it was rather not running at all (``SilentExitEstimate``).
///
/// The evidence, best first: events the simulator wrote from its own state (`ground_truth`), runningboardd's
/// lines in a log capture (`lifetrace import`), and otherwise inference: iOS suspends an app seconds after
/// `didEnterBackground` returns when nothing keeps it running ("Extending your app's background execution
/// time"), so a background process with no open task that shows no sign of life for longer than
/// ``TraceAnalyzer/suspensionThreshold`` (or two heartbeat intervals, when the recorder wrote heartbeats) was
/// suspended for that time.
///
/// The tracker decides and keeps the intervals; the analyzer accounts the time around them (``Transition``).
struct SuspensionTracker {
    /// Where the trace's suspensions come from.
    enum Evidence {
        /// Inferred from silence in the background.
        case inference
        /// Logged by the system (a trace derived from a log capture); inferred where the capture is silent.
        case systemLog
        /// Written by the simulator from its own state.
        case groundTruth
    }

    /// What an event, or a process's end, changed.
    enum Transition: Equatable {
        case none
        /// The process was suspended at this time (known from evidence, not inferred).
        case suspended(at: Int64)
        /// A suspension ended; `interval` is kept and counted.
        case resumed(SuspensionInterval)
        /// An idle process was suspended from `interval.start` to this event: inferred.
        case inferred(SuspensionInterval)
    }

    /// The basis of a suspension the system logged.
    static let systemBasis = "the system logged it"
    /// The idle mark of a process that is not idle: far in the future, so that the per-event test never passes.
    private static let notIdle = Int64.max

    let evidence: Evidence
    /// How long an idle background process goes without a sign of life before it counts as suspended.
    private let idleThreshold: Int64
    /// The basis of an inferred suspension.
    private let inferenceBasis: String
    /// Whether the system suspends the trace's processes: an app's, not a service's (a server is never
    /// suspended; its silence is not inferred as suspension).
    private let suspendable: Bool

    /// When the running process was suspended, if it is (from evidence; inferred ones are closed at once).
    private(set) var suspendedSince: Int64?
    /// When the running process last showed it was running while idle in the background; ``notIdle`` when it
    /// is not idle. A plain value, so the per-event test is one comparison.
    private var idleMark = notIdle
    /// When the last process ended after announcing it (`applicationWillTerminate`), until the next launch.
    private var announcedEnd: Int64?

    /// The first intervals, up to ``TraceAnalyzer/keptDetails``.
    private(set) var intervals: [SuspensionInterval] = []
    /// Every interval.
    private(set) var count = 0
    /// Intervals the system logged, out of ``count``.
    private(set) var systemCount = 0
    /// Processes that ended silently while suspended, and the relaunch gaps that estimate their time not running.
    private(set) var silentExits = SilentExitEstimate(exits: 0, intervals: 0, relaunches: 0, relaunchGaps: 0)

    /// A tracker for a trace whose header is `header`.
    init(header: TraceHeader?) {
        evidence = header?.hasGroundTruth == true ? .groundTruth : header?.isDerived == true ? .systemLog : .inference
        // The interval the recorder wrote heartbeats at; one that is not positive declares none.
        let heartbeat = header?.heartbeatNanoseconds
        idleThreshold = heartbeat.map { $0 > Int64.max / 2 ? .max : $0 * 2 } ?? TraceAnalyzer.suspensionThreshold
        inferenceBasis = heartbeat != nil ? "heartbeats stopped" : "idle in the background"
        suspendable = header.followedLifecycle != .service
    }

    /// Whether every suspension came from evidence rather than inference.
    var fromEvidence: Bool {
        evidence == .groundTruth || (systemCount > 0 && systemCount == count)
    }

    /// Whether the running process is idle in the background (suspended from its last sign of life if the
    /// next one is far enough away).
    var isIdle: Bool { idleMark != Self.notIdle }

    // MARK: - Events

    /// Reads an event of the running process, before anything else does.
    @inline(__always)
    mutating func read(_ event: EventRecord) -> Transition {
        guard evidence == .inference else { return readEvidence(event) }
        return inferFromSilence(until: event.t, kind: event.kind)
    }

    /// Inference: an idle process that shows no sign of life for longer than the threshold was suspended, unless
    /// the sign of life that ends the silence is a snapshot (`app.state`, `scene.state`): a recording that began
    /// after the launch, whose silence before was the recorder not running yet. Whether the process is idle
    /// changes from event to event in no pattern, so it is not tested: the one comparison nearly always fails.
    @inline(__always)
    private mutating func inferFromSilence(until t: Int64, kind: EventKind) -> Transition {
        let idle = idleMark
        let silenceEnds = endsSilence(at: t)
        idleMark = Self.notIdle
        guard silenceEnds, kind != .appState, kind != .sceneState else { return .none }
        return .inferred(keep(SuspensionInterval(start: idle, end: t, basis: inferenceBasis)))
    }

    /// Whether a sign of life at `t` ends a silence of an idle process long enough to infer a suspension.
    @inline(__always)
    private func endsSilence(at t: Int64) -> Bool {
        // Timestamps are never negative, so the difference cannot overflow.
        t - idleMark > idleThreshold
    }

    /// Reads a quiet event at `t` (``AnalysisCore/isQuiet(_:triggers:readByModels:)``: not a process's, nor a
    /// snapshot) as ``read(_:)`` does, if that changes nothing but the idle mark, and returns true; returns false,
    /// having changed nothing, if it would end a silence long enough to infer a suspension.
    @inline(__always)
    mutating func readQuietly(at t: Int64) -> Bool {
        switch evidence {
        case .groundTruth:
            return true
        case .systemLog where suspendedSince != nil:
            return true
        case .inference, .systemLog:
            guard !endsSilence(at: t) else { return false }
            idleMark = Self.notIdle
            return true
        }
    }

    @inline(never)
    private mutating func readEvidence(_ event: EventRecord) -> Transition {
        switch (evidence, event.kind) {
        case (.systemLog, .processSuspend) where suspendedSince != nil:
            return .none
        case (.groundTruth, .processSuspend), (.systemLog, .processSuspend):
            suspendedSince = event.t
            idleMark = Self.notIdle
            return .suspended(at: event.t)
        case (.groundTruth, .processResume), (.systemLog, .processResume):
            defer { (suspendedSince, idleMark) = (nil, Self.notIdle) }
            guard let since = suspendedSince else { return .none }
            let basis = evidence == .groundTruth ? "ground truth" : Self.systemBasis
            return .resumed(
                keep(SuspensionInterval(start: since, end: event.t, basis: basis), logged: evidence == .systemLog))
        case (.groundTruth, _):
            return .none
        default:
            // The system's word replaces inference while it lasts.
            return suspendedSince != nil ? .none : inferFromSilence(until: event.t, kind: event.kind)
        }
    }

    /// Notes that the running process, in the background when `idleInBackground`, ran until `end`: its last
    /// sign of life, from which silence counts. Without ground truth, while not suspended, and with no task
    /// keeping it running.
    @inline(__always)
    mutating func noteSignOfLife(until end: Int64, idleInBackground: Bool) {
        idleMark = idleInBackground && suspendable ? end : Self.notIdle
    }

    // MARK: - Processes

    /// A process launched (or, with `isLaunch` false, the trace starts in one): a relaunch after an announced
    /// end measures the time not running.
    mutating func processStarted(at t: Int64, isLaunch: Bool) {
        if let end = announcedEnd, isLaunch {
            silentExits.relaunches += 1
            silentExits.relaunchGaps += max(0, t - end)
        }
        announcedEnd = nil
        suspendedSince = nil
        idleMark = Self.notIdle
    }

    /// Whether the process ending now was suspended: by evidence, or, followed by a new launch, idle in the
    /// background with nothing keeping it running (suspended within seconds, however soon the launch came).
    func suspendedAtEnd(nextLaunch: Bool) -> Bool {
        suspendedSince != nil || (nextLaunch && isIdle)
    }

    /// The running process ended at `t`, `silently` when it ended while suspended and a new launch followed;
    /// returns the suspension its end closes.
    mutating func processEnded(at t: Int64, silently: Bool) -> Transition {
        if let since = suspendedSince {
            let logged = evidence == .systemLog
            return .resumed(
                keep(
                    SuspensionInterval(start: since, end: t, basis: logged ? Self.systemBasis : "ground truth"),
                    logged: logged))
        }
        guard silently, isIdle else { return .none }
        silentExits.exits += 1
        silentExits.intervals += t - idleMark
        return .inferred(
            keep(SuspensionInterval(start: idleMark, end: t, basis: "idle in the background, then a new launch")))
    }

    /// The process that ended announced its end (`applicationWillTerminate`), at `t`.
    mutating func processAnnouncedEnd(at t: Int64) {
        announcedEnd = t
    }

    @inline(never)
    private mutating func keep(_ interval: SuspensionInterval, logged: Bool = false) -> SuspensionInterval {
        count += 1
        if logged { systemCount += 1 }
        if intervals.count < TraceAnalyzer.keptDetails { intervals.append(interval) }
        return interval
    }
}
