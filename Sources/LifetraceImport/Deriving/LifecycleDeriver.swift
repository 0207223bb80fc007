// One type for the whole mapping of Schemas/oslog-mapping.md: the app's lines, UIKit's deactivation reasons,
// SpringBoard, runningboardd and launchd share one process state, so they are read in one place.

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

    private var selection: AppSelection
    private var appPID: Int64?
    private var mask: Int64?
    private var ui = UIState.inactive
    private var suspended = false
    private var launched = false
    /// Whether the capture shows this process's launch (SpringBoard's `Bootstrapping app<BUNDLE>`, or UIKit's
    /// launch reason `0 -> 1024`): then every task of the process begins in the capture.
    private var launchShown = false
    /// Between a launch the capture shows and the app's first activation: reason 11 means "still launching".
    private var launching = false
    /// Whether the app logs its own callbacks (`lifetrace ev=app...`): then those, not UIKit's deactivation
    /// reasons, say when it changed state.
    private var ownCallbacks = false
    private var openTasks = Set<Int64>()
    /// The number UIKit gives the process's next task (it numbers them 1, 2, 3... per process), which is how a
    /// creation whose number the log redacts (`Created background task <private>.`) gets one; `nil` while
    /// unknown, when the capture began in the middle of the process (``TaskNumbering``).
    private var nextTaskID: Int64?
    /// The highest task number seen in this process.
    private var highestTaskID: Int64 = 0
    /// The expiration handler the next task creation was announced with.
    private var announcedHandler: String?
    /// Entries held back until redacted task numbers are known.
    private var numbering: TaskNumbering?
    /// The id of UIKit's own snapshot task, reported as `system.snapshot`, whose end is not a task's.
    private var snapshotTasks = Set<Int64>()
    private(set) var origin: Int64?
    private var lastT: Int64 = 0

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
        for event in events { try emit(event) }
    }

    /// Ends the capture: derives the entries still held back.
    public mutating func finish(_ emit: (LifecycleEvent) throws -> Void) rethrows {
        guard let numbering else { return }
        var events: [LifecycleEvent] = []
        resume(first: numbering.likeliestFirst, into: &events)
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
        } else if entry.process == "SpringBoard" || entry.process == "runningboardd" || entry.process == "launchd" {
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
        guard let bundle = selection.bundleID else { return false }
        let message = entry.message
        switch entry.process {
        case "SpringBoard": return message.hasPrefix("Bootstrapping app<" + bundle + ">")
        case "launchd": return Self.launchdExit(entry, bundle: bundle) != nil
        default:
            if UTF8Search.range(of: "Removing assertions for terminated process: [app<", in: message) != nil { return true }
            if let pid = Self.runningBoardPID(message, bundle: bundle), let known = appPID { return pid != known }
            return false
        }
    }

    private func isApp(_ entry: LogLine) -> Bool {
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
                startProcess(entry, reason: "unknown", pid: entry.pid, into: &events)
            } else if appPID == nil {
                appPID = entry.pid
            }
            appLine(entry, message, into: &events)
            return
        }
        switch entry.process {
        case "SpringBoard", "runningboardd":
            if selection.bundleID == nil { learnBundle(from: message) }
            if entry.process == "SpringBoard" {
                springBoard(entry, message, into: &events)
            } else {
                runningBoard(entry, message, into: &events)
            }
        case "launchd":
            launchd(entry, into: &events)
        default: break
        }
    }

    /// A process of the app starts with `entry`: the previous one, if any, ended unseen.
    private mutating func startProcess(_ entry: LogLine, reason: String, pid: Int64?, into events: inout [LifecycleEvent]) {
        reset()
        launched = true
        appPID = pid
        // Launched into the foreground (the user opened it, or UIKit's launch reason is this very line): inactive
        // until it becomes active.
        let foreground = reason == "user" || (isApp(entry) && Self.isLaunchLine(entry.message))
        add(.processLaunch, entry, reason: reason, pid: pid,
            attributes: foreground ? [Attribute(Attribute.Key.uiState, .string("inactive"))] : [], into: &events)
    }

    private mutating func reset() {
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
    /// UIKit's deactivation reason 10: the app is launching (`0 -> 1024`, the first line of a launch).
    static let launchReason: Int64 = 10

    /// UIKit's deactivation reason 11: the app is not in the foreground (set while launching until its scene
    /// is shown, and added just before `UIApplicationDidEnterBackgroundNotification`; see oslog-mapping.md).
    static let backgroundReason: Int64 = 11

    // MARK: - The app's own process

    private mutating func appLine(_ entry: LogLine, _ message: String, into events: inout [LifecycleEvent]) {
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

    /// `Deactivation reason added: 12; deactivation reasons: 2080 -> 6176; animating application lifecycle event: 1`
    private mutating func deactivation(_ entry: LogLine, _ message: String, into events: inout [LifecycleEvent]) {
        guard message.hasPrefix("Deactivation reason added: ") || message.hasPrefix("Deactivation reason removed: "),
            let reasons = UTF8Search.range(of: "deactivation reasons: ", in: message),
            let arrow = UTF8Search.range(of: " -> ", in: message, from: reasons.upperBound)
        else { return notUnderstood(entry) }
        let before = message[reasons.upperBound..<arrow.lowerBound]
        let after = UTF8Search.integer(message, at: arrow.upperBound)
        let reasonStart = message.utf8.index(after: UTF8Search.firstIndex(
            of: UInt8(ascii: ":"), in: message, from: message.startIndex) ?? message.startIndex)
        let reasonText = UTF8Search.prefix(message, from: reasonStart) { $0 == UInt8(ascii: ";") }.dropFirst()
        guard let old = Int64(before), let new = after, let reason = Int64(reasonText) else {
            return notUnderstood(entry)
        }
        if reason == Self.launchReason, old == 0, new == 1 << Self.launchReason {
            // UIKit's launch: a new process if this one had been seen in a UI state already.
            if mask != nil { startProcess(entry, reason: "unknown", pid: entry.pid ?? appPID, into: &events) }
            launchShown = true
            launching = true
            if nextTaskID == nil { nextTaskID = 1 }
        }
        if mask == nil, old == 0, ui == .inactive, !launchShown, message.hasSuffix("lifecycle event: 1") {
            // The capture begins mid-session with the app active (an animated resignation from no reasons; a
            // launch starts from no reasons without animation): state it once, so what follows is ordered.
            add(.appDidBecomeActive, entry, attributes: [Self.stateAtCaptureStart], into: &events)
            ui = .active
        }
        let background: Int64 = 1 << Self.backgroundReason
        if mask == nil, old & background != 0, ui == .inactive, !launchShown {
            // The capture begins with the app in the background.
            add(.appDidEnterBackground, entry, attributes: [Self.stateAtCaptureStart], into: &events)
            ui = .background
        }
        mask = new
        if reason == Self.backgroundReason, !launching || ui == .background {
            if new & background != 0, ui != .background {
                if ui == .active { add(.appWillResignActive, entry, into: &events) }
                add(.appDidEnterBackground, entry, into: &events)
                ui = .background
            } else if new & background == 0, ui == .background {
                add(.appWillEnterForeground, entry, into: &events)
                ui = .inactive
            }
        }
        if old != 0, new == 0 {
            // Active exactly when no reason is left.
            if ui == .background { add(.appWillEnterForeground, entry, into: &events) }
            if ui != .active { add(.appDidBecomeActive, entry, into: &events) }
            ui = .active
            launching = false
        } else if old == 0, new != 0, ui == .active {
            add(.appWillResignActive, entry, into: &events)
            ui = .inactive
        }
    }

    /// Whether `message` is UIKit's launch line (`Deactivation reason added: 10; deactivation reasons: 0 -> 1024`).
    static func isLaunchLine(_ message: String) -> Bool {
        message.hasPrefix("Deactivation reason added: 10; deactivation reasons: 0 -> 1024;")
    }

    // MARK: - SpringBoard and runningboardd

    /// `[0x86c20be40:(FBSceneManager):sceneID:com.example.app-default] Scene lifecycle state did change: Foreground`
    private mutating func springBoard(_ entry: LogLine, _ message: String, into events: inout [LifecycleEvent]) {
        if let bundle = selection.bundleID, message.hasPrefix("Bootstrapping app<" + bundle + "> with intent ") {
            // SpringBoard starts a process: its launch, and why (the intent). A process already running ended unseen.
            let intent = message.dropFirst("Bootstrapping app<".count + bundle.utf8.count + "> with intent ".count)
                .prefix { $0 != " " }
            startProcess(entry, reason: Self.launchReason(intent: intent), pid: nil, into: &events)
            launchShown = true
            launching = true
            nextTaskID = 1
            return
        }
        guard let marker = UTF8Search.range(of: "Scene lifecycle state did change: ", in: message) else { return }
        guard let bundle = selection.bundleID, message.contains("sceneID:" + bundle + "-") else { return }
        switch message[marker.upperBound...].prefix(while: { $0.isLetter }) {
        case "Background":
            if ui == .active { add(.appWillResignActive, entry, into: &events) }
            if ui != .background { add(.appDidEnterBackground, entry, into: &events) }
            ui = .background
        case "Foreground":
            if ui == .background {
                add(.appWillEnterForeground, entry, into: &events)
                ui = .inactive
            }
        default:
            notUnderstood(entry)
        }
    }

    /// `Calculated state for app<com.example.app(UUID)>: running-suspended (role: None) (endowments: ...)`
    private mutating func runningBoard(_ entry: LogLine, _ message: String, into events: inout [LifecycleEvent]) {
        if let marker = UTF8Search.range(of: "Removing assertions for terminated process: [app<", in: message) {
            let identity = message[marker.upperBound...].prefix { $0 != "(" && $0 != ">" }
            guard launched, matchesBundle(identity) else { return }
            return endProcess(entry, reason: "terminated", into: &events)
        }
        if let bundle = selection.bundleID, let pid = Self.runningBoardPID(message, bundle: bundle) {
            // runningboardd names the app's process with its pid: a new pid is a new process.
            if !launched || (appPID != nil && appPID != pid) {
                startProcess(entry, reason: "unknown", pid: pid, into: &events)
            } else if appPID == nil {
                appPID = pid
            }
        }
        guard let marker = UTF8Search.range(of: "Calculated state for app<", in: message) else { return }
        let identity = message[marker.upperBound...].prefix { $0 != "(" && $0 != ">" }
        guard matchesBundle(identity), let colon = UTF8Search.range(of: ">: ", in: message) else { return }
        let state = message[colon.upperBound...].prefix { $0 != " " }
        guard launched else { return }
        if state.hasPrefix("running-suspended") {
            if !suspended { add(.processSuspend, entry, into: &events) }
            suspended = true
        } else if state.hasPrefix("running") {
            if suspended { add(.processResume, entry, into: &events) }
            suspended = false
            // A macOS app (`application.ID.N.N`) logs no UIKit deactivation reasons; the role runningboardd
            // gives it is what says it is in front of the user.
            if identity.hasPrefix("application."), mask == nil, ui != .active, state.hasPrefix("running-active"),
                let role = UTF8Search.range(of: "(role: UserInteractive", in: message) {
                let name = UTF8Search.prefix(message, from: message.utf8.index(role.lowerBound, offsetBy: 7)) {
                    $0 == UInt8(ascii: ")")
                }
                add(.appDidBecomeActive, entry, attributes: [Attribute(Attribute.Key.processRole, .string(String(name)))],
                    into: &events)
                ui = .active
                launching = false
            }
        } else if state.isEmpty {
            notUnderstood(entry)
        }
    }

    /// The pid in runningboardd's name for the app's process, `[app<BUNDLE(UUID)>:PID]`.
    static func runningBoardPID(_ message: String, bundle: String) -> Int64? {
        guard let marker = message.range(of: "[app<" + bundle + "(") ?? message.range(of: "[app<" + bundle + ">"),
            let end = message[marker.upperBound...].range(of: ">:")
        else { return nil }
        return UTF8Search.integer(message, at: end.upperBound)
    }

    /// The app's process ended, as the system logged it.
    private mutating func endProcess(_ entry: LogLine, reason: String, into events: inout [LifecycleEvent]) {
        add(.processExit, entry, reason: reason, into: &events)
        launched = false
        appPID = nil
        reset()
    }

    // MARK: - launchd

    /// `exited due to SIGPIPE | sent by Roam[1758], ran for 4930203ms` / `exited with exit code: 0`, for the
    /// job `UIKitApplication:BUNDLE[...]` (in the subsystem column of a Console copy, or in the message).
    private mutating func launchd(_ entry: LogLine, into events: inout [LifecycleEvent]) {
        guard launched, let bundle = selection.bundleID, let reason = Self.launchdExit(entry, bundle: bundle) else { return }
        endProcess(entry, reason: reason, into: &events)
    }

    /// The exit reason launchd logs for the app's job: the signal (`SIGPIPE`), or `exit-code-N`.
    static func launchdExit(_ entry: LogLine, bundle: String) -> String? {
        let job = "UIKitApplication:" + bundle + "["
        guard entry.message.contains(job) || entry.subsystem?.contains(job) == true else { return nil }
        if let range = UTF8Search.range(of: "exited due to ", in: entry.message) {
            let signal = UTF8Search.prefix(entry.message, from: range.upperBound) {
                $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "|") || $0 == UInt8(ascii: ",")
            }
            return signal.isEmpty ? nil : String(signal)
        }
        if let code = integer(after: "exited with exit code: ", in: entry.message) { return "exit-code-\(code)" }
        return nil
    }

    /// The launch reason for SpringBoard's launch intent: `foreground-interactive` is the user opening the
    /// app; other intents are kept as written.
    static func launchReason(intent: Substring) -> String {
        switch intent {
        case "foreground-interactive": "user"
        case "": "unknown"
        default: String(intent)
        }
    }

    /// Whether a runningboardd identity is the app's: `com.example.app` on iOS, `application.com.example.app.N.N`
    /// on macOS.
    private func matchesBundle(_ identity: Substring) -> Bool {
        guard let bundle = selection.bundleID else { return false }
        return identity == bundle || identity.hasPrefix("application." + bundle + ".")
    }

    /// Learns the app's bundle identifier from a system line naming its process: `[app<BUNDLE(UUID)>:PID]`.
    private mutating func learnBundle(from message: String) {
        guard let pid = appPID, let end = message.range(of: ">:\(pid)]"),
            let start = message.range(of: "app<", options: .backwards, range: message.startIndex..<end.lowerBound)
        else { return }
        let identity = message[start.upperBound..<end.lowerBound].prefix { $0 != "(" }
        if !identity.isEmpty { selection.bundleID = String(identity) }
    }

    // MARK: - Helpers

    private mutating func notUnderstood(_ entry: LogLine) {
        notUnderstoodCount += 1
        if notUnderstood.count < 100 { notUnderstood.append(NotUnderstood(line: entry.number, text: entry.message)) }
    }

    private mutating func time(_ entry: LogLine) -> Int64 {
        let t = max(entry.timestamp - (origin ?? entry.timestamp), lastT)
        lastT = t
        return t
    }

    private func withProvenance(_ event: LifecycleEvent, _ entry: LogLine) -> LifecycleEvent {
        var event = event
        event.attrs = (event.attrs ?? []) + [Attribute(Attribute.Key.logLine, .int(Int64(entry.number)))]
        return event
    }

    private mutating func add(_ kind: EventKind, _ entry: LogLine, task: Int64? = nil, name: String? = nil,
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
