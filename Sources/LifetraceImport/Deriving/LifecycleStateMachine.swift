// The state of the whole mapping of Schemas/oslog-mapping.md: the app's lines, UIKit's deactivation reasons and
// the system's lines (read by the parsers in Lines/ into observations) share one process state. The app's
// observations are consumed in LifecycleStateMachine+App.swift, UIKit's deactivation reasons in
// LifecycleStateMachine+Deactivation.swift, the system's in LifecycleStateMachine+System.swift and
// BGTaskScheduler's in LifecycleStateMachine+ScheduledTasks.swift.

import LifetraceCore

/// The app's process as the log shows it, moved by the observations the parsers read from each entry; derives
/// the lifecycle events each transition implies.
///
/// Only transitions the log proves are derived, and only in an order the lifecycle allows: a background entry
/// seen while the app was active is preceded by the resignation the log implies. Each derived event carries the
/// input line it came from as the attribute `log_line`. ``LifecycleDeriver`` feeds it, and copies it to replay
/// entries once redacted task numbers are known.
struct LifecycleStateMachine: Sendable {
    var selection: AppSelection
    var appPID: Int64?
    var mask: Int64?
    /// Where the app's UI is (it is never `unattached` here: a process starts inactive, or in the background).
    var ui = ActivationState.inactive
    var suspended = false
    var launched = false
    /// Whether the capture shows this process's launch (SpringBoard's `Bootstrapping app<BUNDLE>`, or UIKit's
    /// launch reason `0 -> 1024`): then every task of the process begins in the capture.
    var launchShown = false
    /// Between a launch the capture shows and the app's first activation: reason 11 means "still launching".
    var launching = false
    /// Whether the app logs its own callbacks (`lifetrace ev=app...`): then those, not UIKit's deactivation
    /// reasons, say when it changed state.
    var ownCallbacks = false
    var openTasks = Set<Int64>()
    /// The number UIKit gives the process's next task (it numbers them 1, 2, 3... per process), which is how a
    /// creation whose number the log redacts (`Created background task <private>.`) gets one; `nil` while
    /// unknown, when the capture began in the middle of the process (``TaskNumbering``).
    var nextTaskID: Int64?
    /// The highest task number seen in this process.
    var highestTaskID: Int64 = 0
    /// The expiration handler the next task creation was announced with.
    var announcedHandler: String?
    /// The id of UIKit's own snapshot task, reported as `system.snapshot`, whose end is not a task's.
    var snapshotTasks = Set<Int64>()
    /// Whether a system line started this process and the app has not logged since: another such line (the
    /// job after SpringBoard's bootstrap) is the same launch.
    var launchAnnounced = false
    /// Why the next process starts, as SpringBoard said before the job was started.
    var requestedLaunch: (reason: String, foreground: Bool)?
    /// Whether the process ended (an exit line) and no other has started: the ended process's last lines (its
    /// pid's, or without pids, until a launch) start none.
    var afterExit = false
    var endedPID: Int64?
    /// Whether runningboardd resumed the process and the app has logged no line since: a resume repeated then
    /// proves no other suspension.
    var resumedSinceLine = false
    /// Whether this process has been seen in a UI state (a UI event derived).
    var uiSeen = false
    /// Whether an event came from the app's own print of a callback (``AppPrintLine``): the header says so.
    var appPrints = false
    /// Whether the app's process logged macOS's front-most changes or AppKit's `isActive` (``MacAppLine``): the
    /// trace follows AppKit's lifecycle.
    var appKit = false
    /// BGTaskScheduler's tasks (``ScheduledTasks``).
    var scheduled = ScheduledTasks()
    private var origin: Int64?
    private var lastT: Int64 = 0

    /// The pids of the app's earlier processes in the capture (the latest ``earlierPIDLimit``): a line of one
    /// that comes after a later process started (the log relay interleaves them) starts no process again.
    private var earlierPIDs: [Int64] = []
    static let earlierPIDLimit = 64
    /// Lines of earlier processes that came after a later one started, not read, and the first one's line.
    private(set) var lateLines = 0
    private(set) var firstLateLine: Int?

    /// Lifecycle-looking lines that did not parse, in order (the first 100).
    private(set) var notUnderstood: [LifecycleDeriver.NotUnderstood] = []
    /// Their number.
    private(set) var notUnderstoodCount = 0

    /// Marks a state the capture began in rather than a transition it shows.
    static let stateAtCaptureStart = Attribute(Attribute.Key.stateAtCaptureStart, .bool(true))
    /// Marks a task id numbered by the importer because the log redacted it.
    static let taskIDInferred = Attribute(Attribute.Key.taskIDInferred, .bool(true))
    /// Marks the end of a task begun before the capture began.
    static let begunBeforeCapture = Attribute(Attribute.Key.begunBeforeCapture, .bool(true))
    /// On a suspension a resume proves, whose own line the capture lost.
    static let suspensionStartUnknown = Attribute(Attribute.Key.suspensionStartUnknown, .bool(true))
    /// On a transition whose own line the capture lost, derived at the first line that shows it happened.
    static let lostFromCapture = Attribute(Attribute.Key.lostFromCapture, .bool(true))

    init(selection: AppSelection) {
        self.selection = selection
        self.appPID = selection.pid
    }

    /// Sets the trace's origin, the time of the capture's first entry.
    mutating func begin(at entry: LogLine) {
        if origin == nil { origin = entry.timestamp }
    }

    /// Whether `pid` is one of an earlier process of the app's, not the running one's.
    func isEarlier(_ pid: Int64?) -> Bool {
        guard let pid, pid != appPID else { return false }
        return earlierPIDs.contains(pid)
    }

    /// Keeps `pid` as an earlier process's (the latest ``earlierPIDLimit``).
    mutating func rememberEarlier(_ pid: Int64) {
        guard !earlierPIDs.contains(pid) else { return }
        if earlierPIDs.count == Self.earlierPIDLimit { earlierPIDs.removeFirst() }
        earlierPIDs.append(pid)
    }

    /// Counts `entry`, a line of an earlier process that came after a later one started: not read.
    mutating func noteLate(_ entry: LogLine) {
        lateLines += 1
        if firstLateLine == nil { firstLateLine = entry.number }
    }

    /// Whether `entry` is a line of the selected app's process.
    func isApp(_ entry: LogLine) -> Bool {
        if let pid = selection.pid, let linePID = entry.pid { return pid == linePID }
        if let process = selection.process { return entry.process == process }
        return false
    }

    /// Derives the events `entry` implies: a line of the app's process moves the process (any such line shows
    /// it runs) and then says what ``AppObservation`` reads in it; a system line says what its source's parser
    /// reads (``SystemObservation``).
    mutating func derive(_ entry: LogLine, into events: inout [LifecycleEvent]) {
        guard isApp(entry) else { return apply(entry, into: &events) }
        if isEarlier(entry.pid) { return noteLate(entry) }
        if let pid = entry.pid, let known = appPID, pid != known {
            // Another process of the same app: the previous one ended unseen.
            startProcess(entry, reason: "unknown", pid: pid, into: &events)
        } else if !launched {
            // The last lines of a process whose end was logged start no other.
            if afterExit, entry.pid == nil || entry.pid == endedPID, !DeactivationLine.isLaunchLine(entry.message) {
                return
            }
            startProcess(entry, reason: "unknown", pid: entry.pid, into: &events)
        } else if appPID == nil {
            appPID = entry.pid
        }
        launchAnnounced = false
        resumedSinceLine = false
        guard let observation = AppObservation.observe(entry.message) else { return }
        if case .crashed = observation, let kind = AppPrintLine.callback(entry.message) {
            // In Xcode's console the run's end continues its last entry: a callback the entry printed ran first.
            apply(.printedCallback(kind), entry, into: &events)
        }
        apply(observation, entry, into: &events)
    }

    /// A process of the app starts with `entry`: the previous one, if any, ended unseen.
    /// `foreground` says where the UI starts when the system said it (`nil`: not said).
    mutating func startProcess(
        _ entry: LogLine, reason: String, pid: Int64?, foreground: Bool? = nil,
        into events: inout [LifecycleEvent]
    ) {
        if scheduled.isHolding {
            scheduled.hold(events)
            events = releaseScheduledHold()
        }
        if let earlier = appPID, earlier != pid { rememberEarlier(earlier) }
        reset()
        launched = true
        appPID = pid
        // Launched into the foreground (the user opened it, or UIKit's launch reason is this very line): inactive
        // until it becomes active. Launched into the background: there until it comes to the foreground.
        let inForeground =
            foreground
            ?? (reason == "user" || (isApp(entry) && DeactivationLine.isLaunchLine(entry.message)))
        var attributes: [Attribute] = []
        if inForeground {
            attributes = [Attribute(Attribute.Key.uiState, .string(ActivationState.inactive.name))]
        } else if foreground == false {
            attributes = [Attribute(Attribute.Key.uiState, .string(ActivationState.background.name))]
            ui = .background
        }
        add(.processLaunch, entry, attributes: attributes, into: &events) {
            $0.reason = reason
            $0.pid = pid
        }
    }

    mutating func reset() {
        afterExit = false
        endedPID = nil
        launchAnnounced = false
        scheduled.reset()
        mask = nil
        ui = .inactive
        launchShown = false
        launching = false
        suspended = false
        openTasks.removeAll()
        snapshotTasks.removeAll()
        nextTaskID = nil
        highestTaskID = 0
        announcedHandler = nil
        uiSeen = false
        resumedSinceLine = false
    }

    // MARK: - Events

    /// Notes `entry` as a lifecycle-looking line that did not parse.
    mutating func notUnderstood(_ entry: LogLine) {
        notUnderstoodCount += 1
        if notUnderstood.count < 100 {
            notUnderstood.append(LifecycleDeriver.NotUnderstood(line: entry.number, text: entry.message))
        }
    }

    /// The time of `entry` in the trace: since the first entry, never before the last event's.
    mutating func time(_ entry: LogLine) -> Int64 {
        // The parser admits no entry more than 2^63 ns from another (``CaptureSpan``); entries made otherwise
        // are held at the limit rather than wrapped.
        let (since, overflow) = entry.timestamp.subtractingReportingOverflow(origin ?? entry.timestamp)
        let t = max(overflow ? (entry.timestamp < 0 ? Int64.min : Int64.max) : since, lastT)
        lastT = t
        return t
    }

    /// `event` with the attribute `log_line` naming `entry`'s line.
    func withProvenance(_ event: LifecycleEvent, _ entry: LogLine) -> LifecycleEvent {
        var event = event
        event.attrs = (event.attrs ?? []) + [Attribute(Attribute.Key.logLine, .int(Int64(entry.number)))]
        return event
    }

    /// Derives an event of `kind` at `entry`, with the importer's `attributes` and the optional fields `fields`
    /// sets.
    mutating func add(
        _ kind: EventKind, _ entry: LogLine, attributes: [Attribute] = [],
        into events: inout [LifecycleEvent], _ fields: (inout LifecycleEvent) -> Void = { _ in }
    ) {
        switch kind {
        case .appDidBecomeActive, .appWillResignActive, .appDidEnterBackground, .appWillEnterForeground: uiSeen = true
        default: break
        }
        var event = LifecycleEvent(t: time(entry), kind: kind, attrs: attributes.isEmpty ? nil : attributes)
        fields(&event)
        events.append(withProvenance(event, entry))
    }
}
