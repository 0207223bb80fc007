public import LifetraceCore

/// Derives lifecycle events for one app from unified-log entries, following `Schemas/oslog-mapping.md`.
///
/// Only transitions the log proves are emitted, and only in an order the lifecycle allows: a background
/// entry seen while the app was active is preceded by the resignation the log implies. Each derived event
/// carries the input line it came from as the attribute `log_line`.
///
/// The parsers of `Lines/` read each entry into observations, and one ``LifecycleStateMachine`` consumes
/// them. This front holds entries back while what they mean is not known yet: while redacted task numbers are
/// unknown (``TaskNumbering``, which then replays them from a copy of the state machine) and while a started
/// BGTaskScheduler task's kind is (``ScheduledTasks``).
public struct LifecycleDeriver: Sendable {
    /// A line that looked like a lifecycle line but did not parse.
    public struct NotUnderstood: Sendable, Hashable {
        /// Its input line.
        public var line: Int
        /// Its text.
        public var text: String
    }

    private var machine: LifecycleStateMachine
    /// Entries held back until redacted task numbers are known.
    private var numbering: TaskNumbering?

    /// Entries read.
    public private(set) var entries = 0
    /// The first entry's time, for the header.
    public private(set) var firstEntry: LogLine?

    /// Creates a deriver for the selected app.
    public init(selection: AppSelection) {
        machine = LifecycleStateMachine(selection: selection)
    }

    /// The bundle identifier, given or learned from runningboardd's lines.
    public var bundleID: String? { machine.selection.bundleID }

    /// Whether an event came from the app's own print of a callback.
    public var appPrints: Bool { machine.appPrints }

    /// Whether the app logged macOS's front-most changes or AppKit's `isActive`: an AppKit app.
    public var appKit: Bool { machine.appKit }

    /// Lifecycle-looking lines that did not parse, in order (the first 100).
    public var notUnderstood: [NotUnderstood] { machine.notUnderstood }

    /// Their number.
    public var notUnderstoodCount: Int { machine.notUnderstoodCount }

    /// Lines of the app's earlier processes that came after a later one started (the log relay interleaves
    /// processes), not read: their number, and the first one's line.
    public var lateLines: (count: Int, first: Int?) { (machine.lateLines, machine.firstLateLine) }

    /// The launch reason for SpringBoard's launch intent (``SpringBoardLine/launchReason(intent:)``).
    static func launchReason(intent: Substring) -> String {
        SpringBoardLine.launchReason(intent: intent)
    }

    /// Derives the events `entry` implies, passing each to `emit`.
    public mutating func consume(_ entry: LogLine, _ emit: (LifecycleEvent) throws -> Void) rethrows {
        entries += 1
        if firstEntry == nil { firstEntry = entry }
        machine.begin(at: entry)
        var events: [LifecycleEvent] = []
        if var held = numbering {
            numbering = nil
            hold(entry, in: &held, into: &events)
        } else if startsNumbering(entry) {
            numbering = TaskNumbering(checkpoint: machine, creation: entry, handler: machine.announcedHandler)
        } else {
            machine.derive(entry, into: &events)
        }
        // While a started task's kind is unknown, what follows it waits for it (``ScheduledTasks``).
        if machine.scheduled.isHolding {
            let ready = machine.scheduled.takeReady()
            machine.scheduled.hold(events)
            guard machine.scheduled.isFull else {
                for event in ready { try emit(event) }
                return
            }
            events = ready + machine.releaseScheduledHold()
        }
        for event in events { try emit(event) }
    }

    /// Ends the capture: derives the entries still held back.
    public mutating func finish(_ emit: (LifecycleEvent) throws -> Void) rethrows {
        var events: [LifecycleEvent] = []
        if let held = numbering {
            numbering = nil
            resume(held, first: held.likeliestFirst, into: &events)
        }
        if machine.scheduled.isHolding {
            machine.scheduled.hold(events)
            events = machine.releaseScheduledHold()
        }
        for event in events { try emit(event) }
    }

    /// Whether `entry` is a creation of the app's whose number the log redacts while UIKit's count is unknown:
    /// then entries are held back until a line tells it.
    private func startsNumbering(_ entry: LogLine) -> Bool {
        machine.nextTaskID == nil && machine.isApp(entry)
            && entry.message.hasPrefix(UIKitTaskLine.redactedCreation)
            && (entry.pid == nil || machine.appPID == nil || entry.pid == machine.appPID)
    }

    /// Holds `entry` back in `held` while redacted task numbers are unknown; derives what was held once they
    /// are known, else keeps holding.
    private mutating func hold(_ entry: LogLine, in held: inout TaskNumbering, into events: inout [LifecycleEvent]) {
        if machine.isApp(entry) {
            if entry.pid != nil, machine.appPID != nil, entry.pid != machine.appPID {
                // Another process: the held creations' numbers will not be told any more.
                resume(held, first: held.likeliestFirst, into: &events)
                return machine.derive(entry, into: &events)
            }
            if DeactivationLine.isLaunchLine(entry.message) {
                // The process's own launch: the held creations are its first tasks. (A relaunch after the app
                // was seen in a UI state is another process.)
                resume(held, first: held.checkpoint.mask == nil ? 1 : held.likeliestFirst, into: &events)
                return machine.derive(entry, into: &events)
            }
            if let first = held.holdAppEntry(entry) { return resume(held, first: first, into: &events) }
        } else if SystemSource(process: entry.process) != nil {
            if endsOrStartsProcess(entry) {
                resume(held, first: held.likeliestFirst, into: &events)
                return machine.derive(entry, into: &events)
            }
            held.hold(entry)
        }
        if held.isFull { return resume(held, first: held.likeliestFirst, into: &events) }
        numbering = held
    }

    /// Goes back to where holding began and derives the held entries, the first held creation numbered `first`
    /// (without a number known, one past the highest seen).
    private mutating func resume(_ held: TaskNumbering, first: Int64?, into events: inout [LifecycleEvent]) {
        machine = held.checkpoint
        machine.nextTaskID = max(1, first ?? machine.highestTaskID + 1)
        for entry in held.held { machine.derive(entry, into: &events) }
    }

    /// Whether a system line ends the app's process or starts another.
    private func endsOrStartsProcess(_ entry: LogLine) -> Bool {
        guard let observation = machine.observe(entry) else { return false }
        switch observation.kind {
        case .bootstrapping, .jobStarted, .exited: return true
        default:
            if let pid = observation.pid, let known = machine.appPID { return pid != known }
            return false
        }
    }
}
