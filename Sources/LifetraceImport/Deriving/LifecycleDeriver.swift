// The state of the whole mapping of Schemas/oslog-mapping.md: the app's lines, UIKit's deactivation reasons and
// the system's lines (read by the parsers in Lines/) share one process state. The app's lines are read here;
// UIKit's deactivation reasons in LifecycleDeriver+Deactivation.swift, the system's observations in
// LifecycleDeriver+System.swift and BGTaskScheduler's in LifecycleDeriver+ScheduledTasks.swift.

import Foundation
public import LifetraceCore

/// Derives lifecycle events for one app from unified-log entries, following `Schemas/oslog-mapping.md`.
///
/// Only transitions the log proves are emitted, and only in an order the lifecycle allows: a background
/// entry seen while the app was active is preceded by the resignation the log implies. Each derived event
/// carries the input line it came from as the attribute `log_line`.
public struct LifecycleDeriver: Sendable {
    /// A line that looked like a lifecycle line but did not parse.
    public struct NotUnderstood: Sendable, Hashable {
        /// Its input line.
        public var line: Int
        /// Its text.
        public var text: String
    }

    enum UIState {
        case inactive, active, background
    }

    var selection: AppSelection
    var appPID: Int64?
    var mask: Int64?
    var ui = UIState.inactive
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
    /// Entries held back until redacted task numbers are known.
    var numbering: TaskNumbering?
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
    /// BGTaskScheduler's tasks (``ScheduledTasks``).
    var scheduled = ScheduledTasks()
    private(set) var origin: Int64?
    var lastT: Int64 = 0

    /// Lifecycle-looking lines that did not parse, in order (the first 100).
    public private(set) var notUnderstood: [NotUnderstood] = []
    /// Their number.
    public private(set) var notUnderstoodCount = 0
    /// Entries read.
    public private(set) var entries = 0
    /// The first entry's time, for the header.
    public private(set) var firstEntry: LogLine?

    /// Creates a deriver for the selected app.
    public init(selection: AppSelection) {
        self.selection = selection
        self.appPID = selection.pid
    }

    /// The bundle identifier, given or learned from runningboardd's lines.
    public var bundleID: String? { selection.bundleID }

    /// Derives the events `entry` implies, passing each to `emit`.
    public mutating func consume(_ entry: LogLine, _ emit: (LifecycleEvent) throws -> Void) rethrows {
        entries += 1
        if firstEntry == nil { firstEntry = entry }
        if origin == nil { origin = entry.timestamp }
        var events: [LifecycleEvent] = []
        if numbering != nil {
            hold(entry, into: &events)
        } else if nextTaskID == nil, isApp(entry), entry.message.hasPrefix(UIKitTaskLine.redactedCreation),
            entry.pid == nil || appPID == nil || entry.pid == appPID {
            numbering = TaskNumbering(checkpoint: self, creation: entry, handler: announcedHandler)
        } else {
            derive(entry, into: &events)
        }
        // While a started task's kind is unknown, what follows it waits for it (``ScheduledTasks``).
        if scheduled.isHolding {
            let ready = scheduled.takeReady()
            scheduled.hold(events)
            guard scheduled.isFull else {
                for event in ready { try emit(event) }
                return
            }
            events = ready + releaseScheduledHold()
        }
        for event in events { try emit(event) }
    }

    /// Ends the capture: derives the entries still held back.
    public mutating func finish(_ emit: (LifecycleEvent) throws -> Void) rethrows {
        var events: [LifecycleEvent] = []
        if let numbering { resume(first: numbering.likeliestFirst, into: &events) }
        if scheduled.isHolding {
            scheduled.hold(events)
            events = releaseScheduledHold()
        }
        for event in events { try emit(event) }
    }

    /// Holds `entry` back while redacted task numbers are unknown; derives what was held once they are known.
    private mutating func hold(_ entry: LogLine, into events: inout [LifecycleEvent]) {
        if isApp(entry) {
            if entry.pid != nil, appPID != nil, entry.pid != appPID {
                // Another process: the held creations' numbers will not be told any more.
                resume(first: numbering!.likeliestFirst, into: &events)
                return derive(entry, into: &events)
            }
            if Self.isLaunchLine(entry.message) {
                // The process's own launch: the held creations are its first tasks. (A relaunch after the app
                // was seen in a UI state is another process.)
                resume(first: numbering!.checkpoint.deriver.mask == nil ? 1 : numbering!.likeliestFirst, into: &events)
                return derive(entry, into: &events)
            }
            if let first = numbering!.holdAppEntry(entry) { resume(first: first, into: &events) }
        } else if SystemSource(process: entry.process) != nil {
            if endsOrStartsProcess(entry) {
                resume(first: numbering!.likeliestFirst, into: &events)
                return derive(entry, into: &events)
            }
            numbering!.hold(entry)
        }
        if numbering?.isFull == true { resume(first: numbering!.likeliestFirst, into: &events) }
    }

    /// Goes back to where holding began and derives the held entries, the first held creation numbered `first`
    /// (without a number known, one past the highest seen).
    private mutating func resume(first: Int64?, into events: inout [LifecycleEvent]) {
        guard let numbering else { return }
        let count = entries
        self = numbering.checkpoint.deriver
        entries = count
        nextTaskID = max(1, first ?? highestTaskID + 1)
        for entry in numbering.held { derive(entry, into: &events) }
    }

    /// Whether a system line ends the app's process or starts another.
    private func endsOrStartsProcess(_ entry: LogLine) -> Bool {
        guard let observation = observe(entry) else { return false }
        switch observation.kind {
        case .bootstrapping, .jobStarted, .exited: return true
        default:
            if let pid = observation.pid, let known = appPID { return pid != known }
            return false
        }
    }

    func isApp(_ entry: LogLine) -> Bool {
        if let pid = selection.pid, let linePID = entry.pid { return pid == linePID }
        if let process = selection.process { return entry.process == process }
        return false
    }

    private mutating func derive(_ entry: LogLine, into events: inout [LifecycleEvent]) {
        let message = entry.message
        if isApp(entry) {
            if let pid = entry.pid, let known = appPID, pid != known {
                // Another process of the same app: the previous one ended unseen.
                startProcess(entry, reason: "unknown", pid: pid, into: &events)
            } else if !launched {
                // The last lines of a process whose end was logged start no other.
                if afterExit, entry.pid == nil || entry.pid == endedPID, !Self.isLaunchLine(message) { return }
                startProcess(entry, reason: "unknown", pid: entry.pid, into: &events)
            } else if appPID == nil {
                appPID = entry.pid
            }
            launchAnnounced = false
            appLine(entry, message, into: &events)
            return
        }
        apply(entry, into: &events)
    }

    /// A process of the app starts with `entry`: the previous one, if any, ended unseen.
    /// `foreground` says where the UI starts when the system said it (`nil`: not said).
    mutating func startProcess(_ entry: LogLine, reason: String, pid: Int64?, foreground: Bool? = nil,
                               into events: inout [LifecycleEvent]) {
        if scheduled.isHolding { scheduled.hold(events); events = releaseScheduledHold() }
        reset()
        launched = true
        appPID = pid
        // Launched into the foreground (the user opened it, or UIKit's launch reason is this very line): inactive
        // until it becomes active. Launched into the background: there until it comes to the foreground.
        let inForeground = foreground ?? (reason == "user" || (isApp(entry) && Self.isLaunchLine(entry.message)))
        var attributes: [Attribute] = []
        if inForeground {
            attributes = [Attribute(Attribute.Key.uiState, .string("inactive"))]
        } else if foreground == false {
            attributes = [Attribute(Attribute.Key.uiState, .string("background"))]
            ui = .background
        }
        add(.processLaunch, entry, reason: reason, pid: pid, attributes: attributes, into: &events)
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
    }

    /// Marks a state the capture began in rather than a transition it shows.
    static let stateAtCaptureStart = Attribute(Attribute.Key.stateAtCaptureStart, .bool(true))
    /// Marks a task id numbered by the importer because the log redacted it.
    static let taskIDInferred = Attribute(Attribute.Key.taskIDInferred, .bool(true))
    /// Marks the end of a task begun before the capture began.
    static let begunBeforeCapture = Attribute(Attribute.Key.begunBeforeCapture, .bool(true))
    /// On a transition whose own line the capture lost, derived at the first line that shows it happened.
    static let lostFromCapture = Attribute(Attribute.Key.lostFromCapture, .bool(true))
    /// UIKit's deactivation reason 10: the app is launching (`0 -> 1024`, the first line of a launch).
    static let launchReason: Int64 = 10

    /// UIKit's deactivation reason 11: the app is not in the foreground (set while launching until its scene
    /// is shown, and added just before `UIApplicationDidEnterBackgroundNotification`; see oslog-mapping.md).
    static let backgroundReason: Int64 = 11

    // MARK: - The app's own process

    private mutating func appLine(_ entry: LogLine, _ message: String, into events: inout [LifecycleEvent]) {
        if let reason = AppCrashLine.reason(message) {
            // `*** Terminating app due to uncaught exception ...`, `libc++abi: terminating ...`: the process ends.
            return endProcess(entry, reason: reason, pid: entry.pid ?? appPID, into: &events)
        }
        if let observation = BackgroundTaskLine.observe(message) {
            return scheduledTask(observation, entry, into: &events)
        }
        if message.hasPrefix("Deactivation reason ") {
            if !ownCallbacks { deactivation(entry, message, into: &events) }
        } else if message.hasPrefix(UIKitTaskLine.announcement) {
            announcedHandler = UIKitTaskLine.handler(after: "expirationHandler: ", in: message)
        } else if message.hasPrefix(UIKitTaskLine.creation) {
            announcedHandler = nil
            let redacted = message.hasPrefix(UIKitTaskLine.redactedCreation)
            let id: Int64
            if redacted {
                // Numbered as UIKit numbers them; unknown only if the capture ended before anything told.
                id = nextTaskID ?? highestTaskID + 1
            } else {
                guard let shown = Self.integer(after: "taskID = ", in: message) else { return notUnderstood(entry) }
                id = shown
            }
            nextTaskID = id + 1
            highestTaskID = max(highestTaskID, id)
            var name = Self.field(after: "taskName = ", in: message)
            if name == "<private>" { name = nil }
            if name == "com.apple.uikit.applicationSnapshot" {
                snapshotTasks.insert(id)
                add(.systemSnapshot, entry, into: &events)
                return
            }
            openTasks.insert(id)
            add(.taskBegin, entry, task: id, name: name, attributes: redacted ? [Self.taskIDInferred] : [], into: &events)
        } else if message.hasPrefix(UIKitTaskLine.end) {
            guard let id = Self.integer(after: "UIBackgroundTaskIdentifier: ", in: message) else {
                return notUnderstood(entry)
            }
            highestTaskID = max(highestTaskID, id)
            if snapshotTasks.remove(id) != nil { return }
            if openTasks.remove(id) != nil {
                add(.taskEnd, entry, task: id, into: &events)
            } else if !launchShown {
                // Begun before the capture began: its end is kept, and says so.
                add(.taskEnd, entry, task: id, attributes: [Self.begunBeforeCapture], into: &events)
            } else {
                // The capture shows the whole process, yet not this task's creation.
                notUnderstood(entry)
            }
        } else if message.hasPrefix("lifetrace ") {
            guard var event = LifetraceLogLine.parse(message) else { return notUnderstood(entry) }
            event.t = time(entry)
            switch event.kind.layer {
            case .app, .scene, .swiftui: ownCallbacks = true
            default: break
            }
            if event.kind == .processLaunch, let last = events.last, last.kind == .processLaunch, last.t == event.t {
                // The app's own launch line (a recorder's mirror) is the process start this entry derived: it
                // says it exactly, so it replaces the derived one rather than starting a second process.
                events.removeLast()
            }
            events.append(withProvenance(event, entry))
        }
    }

    // MARK: - Helpers

    mutating func notUnderstood(_ entry: LogLine) {
        notUnderstoodCount += 1
        if notUnderstood.count < 100 { notUnderstood.append(NotUnderstood(line: entry.number, text: entry.message)) }
    }

    mutating func time(_ entry: LogLine) -> Int64 {
        let t = max(entry.timestamp - (origin ?? entry.timestamp), lastT)
        lastT = t
        return t
    }

    func withProvenance(_ event: LifecycleEvent, _ entry: LogLine) -> LifecycleEvent {
        var event = event
        event.attrs = (event.attrs ?? []) + [Attribute(Attribute.Key.logLine, .int(Int64(entry.number)))]
        return event
    }

    mutating func add(_ kind: EventKind, _ entry: LogLine, task: Int64? = nil, name: String? = nil,
                      reason: String? = nil, pid: Int64? = nil, attributes: [Attribute] = [],
                      into events: inout [LifecycleEvent]) {
        let event = LifecycleEvent(t: time(entry), kind: kind, task: task, name: name, reason: reason, pid: pid,
                                   attrs: attributes.isEmpty ? nil : attributes)
        events.append(withProvenance(event, entry))
    }

    static func integer(after marker: StaticString, in message: String) -> Int64? {
        guard let range = UTF8Search.range(of: marker, in: message) else { return nil }
        return UTF8Search.integer(message, at: range.upperBound)
    }

    static func field(after marker: StaticString, in message: String) -> String? {
        guard let range = UTF8Search.range(of: marker, in: message) else { return nil }
        let value = UTF8Search.prefix(message, from: range.upperBound) { $0 == UInt8(ascii: ",") }
        return value.isEmpty ? nil : String(value)
    }
}
