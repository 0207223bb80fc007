import LifetraceCore
import LifetraceFormat

/// The books of the trace's processes: the running one's launch, where its UI is and since when, the time it
/// spent in each state, what the trace says of its end (a termination announced, a handler over its budget, the
/// reason of its exit), and the callbacks written while their handlers ran that still wait for their return;
/// for the processes that ended, totals, counts by end and the first ``TraceAnalyzer/keptDetails`` summaries.
///
/// The analyzer decides what an event changes (the model engine's UI state, suspensions, tasks); the tracker
/// keeps the accounts, as ``SuspensionTracker`` keeps the suspensions.
struct ProcessTracker {
    /// What the analyzer knows of the running process.
    struct State {
        var launchT: Int64
        var reason: String?
        var lastT: Int64
        var times = StateTimes()
        var ui: ActivationState = .unattached
        /// Where the UI is before any UI callback: ``ActivationState/unattached`` (counted as background)
        /// unless the launch says (`ui_state`).
        var launchUI: ActivationState = .unattached
        var uiSince: Int64
        var terminated = false
        var willTerminateEnd: Int64?
        var handlerOverrun = false
        /// The overrun is that of a handler written unfinished that never returned (``unfinished``).
        var overrunUnreturned = false
        /// What the reason of its `process.exit` says ended it, if the trace holds one that says.
        var exitCause: ExitClassifier.ExitCause?
        /// Callbacks written while their handlers ran (`attrs.unfinished`) whose `handler.return` has not come,
        /// oldest first: at the process's end, each one's time to the process's last event is a lower bound of
        /// its duration. At most ``ProcessTracker/unfinishedKept``.
        var unfinished: [UnfinishedHandler] = []
        var firstActive: Int64?
        /// The app entered the background and has not marked a save (`custom.save`) since.
        var backgroundSaveMissing = false
        var reportedAfterTerminate = false
        /// Whether the time to the first activation measures the launch: not when the recording began after
        /// the launch (a snapshot, `app.state` or `scene.state`, says where the app was then), nor when the UI
        /// is active from the process's start (an app extension, presented by its host).
        var launchMeasured = true
        /// Whether the launch was found over its budget before the first activation, told the time while it had
        /// not come (``TraceAnalyzer/advance(to:)``): the activation judges it no more.
        var launchJudgedWaiting = false
    }

    /// A callback written while its handler ran (`attrs.unfinished`), waiting for its `handler.return`.
    struct UnfinishedHandler {
        var kind: EventKind
        var phase: ScenePhase?
        var scene: String?
        var t: Int64
        /// The last time the trace proves the handler still running once events were lost
        /// (`recorder.dropped`): its `handler.return` may be among them, so later events prove nothing. `nil`:
        /// the process's last event.
        var provenUntil: Int64?
        /// Whether its budgets were already judged while it ran (``TraceAnalyzer/advance(to:)``): its return and
        /// the process's end judge them no more.
        var judgedRunning = false
    }

    /// The most handlers written unfinished kept waiting for their return per process (memory stays bounded).
    static let unfinishedKept = 64

    /// The process being read; meaningful while ``alive``.
    var state = State(launchT: 0, lastT: 0, uiSince: 0)
    /// Whether a process is running (from its first event to its end).
    private(set) var alive = false
    /// Whether the current event is the running process's observed end (`process.exit`).
    var endObserved = false
    /// Whether a running process with no UI counts as in the background: an app's does; a service process's,
    /// which has no foreground, background or suspension, counts as nothing (its services' times say where it was).
    var countsTimeWithoutUI = true

    /// The first processes that ended, up to ``TraceAnalyzer/keptDetails``.
    private(set) var summaries: [ProcessSummary] = []
    /// Every process that ended.
    private(set) var count = 0
    /// The time of every process that ended, in each state.
    private(set) var totals = StateTimes()
    /// Processes by how they ended, in the order of ``endOrder``.
    private var endCounts = [Int](repeating: 0, count: ProcessEnd.allCases.count)
    /// ``ProcessEnd/allCases``, made once.
    private static let endOrder = ProcessEnd.allCases

    /// The processes by how they ended, leaving out the ends no process had.
    var endCountsByKind: [ProcessEnd: Int] {
        Dictionary(uniqueKeysWithValues: zip(Self.endOrder, endCounts).filter { $0.1 > 0 })
    }

    // MARK: - A process's start and end

    /// A process starts with `event` (its launch, or the first event of one whose launch the trace lacks).
    mutating func start(_ event: EventRecord, of block: borrowing EventBlock) {
        let reason = event.kind == .processLaunch ? block.extras(of: event).flatMap { block.string($0.reason) } : nil
        state = State(launchT: event.t, reason: reason, lastT: event.t, uiSince: event.t)
        if event.kind == .processLaunch, event.fields.contains(.attrs) {
            state.launchUI = Self.launchUI(of: event, in: block)
            state.ui = state.launchUI
        }
        alive = true
    }

    /// Where a launch says the UI starts (`ui_state`), ``ActivationState/unattached`` if it does not.
    @inline(never)
    private static func launchUI(of event: EventRecord, in block: borrowing EventBlock) -> ActivationState {
        guard case .string(let state)? = block.attribute(Attribute.Key.uiState, of: event) else { return .unattached }
        switch ActivationState(name: state) {
        case .inactive?: return .inactive
        case .background?: return .background
        default: return .unattached
        }
    }

    /// The running process ended as `end`, for the reason `basis`: its times go to the totals, its summary to
    /// the kept ones.
    mutating func ended(as end: ProcessEnd, basis: String) {
        endCounts[Self.endOrder.firstIndex(of: end)!] += 1
        totals.add(state.times)
        count += 1
        if summaries.count < TraceAnalyzer.keptDetails {
            summaries.append(
                ProcessSummary(
                    launchT: state.launchT, launchReason: state.reason, lastT: state.lastT,
                    firstActiveT: state.firstActive,
                    end: end, endBasis: basis, times: state.times))
        }
        alive = false
        endObserved = false
    }

    // MARK: - Time in each state

    /// Counts the time since the last UI change to the state the UI was in, if the process was `running`, and
    /// tells `observer` of the stretch.
    @inline(__always)
    mutating func accountUI(until t: Int64, running: Bool, observer: (any TimelineObserver)?) {
        let elapsed = max(0, t - state.uiSince)
        if running, observer != nil {
            observer?.segment(scene: nil, state: state.ui.timelineState, from: state.uiSince, to: t, inferred: false)
        }
        if running {
            // With no UI attached, a running app counts as in the background; a service as nothing.
            state.times.add(
                elapsed, as: state.ui == .unattached ? (countsTimeWithoutUI ? .background : .unattached) : state.ui)
        }
        state.uiSince = t
    }

    /// Counts a suspension the suspension tracker kept to the process's times, and tells `observer`.
    mutating func accountSuspension(_ interval: SuspensionInterval, inferred: Bool, observer: (any TimelineObserver)?) {
        observer?.segment(scene: nil, state: .suspended, from: interval.start, to: interval.end, inferred: inferred)
        state.times.suspended += interval.end - interval.start
    }

    // MARK: - Handlers written unfinished

    /// A callback of a kind with a handler budget carried extras, no `dur`: kept if its attributes say `unfinished`.
    @inline(never)
    mutating func noteUnfinished(_ event: EventRecord, of block: borrowing EventBlock) {
        guard case .bool(true)? = block.attribute(Attribute.Key.unfinished, of: event),
            state.unfinished.count < Self.unfinishedKept
        else { return }
        state.unfinished.append(
            UnfinishedHandler(
                kind: event.kind, phase: event.phase, scene: block.string(event.scene),
                t: event.t))
    }

    /// The handler of the callback `name` returned (`event`, a `handler.return`): it no longer waits.
    ///
    /// - Returns: whether its budgets were already judged while it ran (``UnfinishedHandler/judgedRunning``).
    @discardableResult
    mutating func handlerReturned(_ event: EventRecord, name: String, of block: borrowing EventBlock) -> Bool {
        guard !state.unfinished.isEmpty, let kind = EventKind(name: name) else { return false }
        let scene = block.string(event.scene)
        if let waiting = state.unfinished.lastIndex(where: { $0.kind == kind && $0.scene == scene }) {
            return state.unfinished.remove(at: waiting).judgedRunning
        }
        return false
    }

    /// Events were lost (`recorder.dropped`: in the `dur` before `t`): a `handler.return` may have been among
    /// them, so the handlers still waiting are proven running only until the loss began.
    mutating func eventsLost(_ event: EventRecord) {
        let lossStart = event.t - event.dur
        for index in state.unfinished.indices where state.unfinished[index].provenUntil == nil {
            state.unfinished[index].provenUntil = max(state.unfinished[index].t, min(state.lastT, lossStart))
        }
    }
}
