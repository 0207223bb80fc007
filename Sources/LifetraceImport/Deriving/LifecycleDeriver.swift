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
    /// Whether the system logged this process's launch (`Bootstrapping app<BUNDLE>`).
    private var launchSeen = false
    /// Whether the app logs its own callbacks (`lifetrace ev=app...`): then those, not UIKit's deactivation
    /// reasons, say when it changed state.
    private var ownCallbacks = false
    /// Whether the app has been active in this process: until then reason 11 means "still launching".
    private var hasBeenActive = false
    private var openTasks = Set<Int64>()
    /// Tasks created in this process so far: UIKit numbers them 1, 2, 3... per process, which is how a
    /// creation whose identifier the log redacts (`Created background task <private>.`) gets its id.
    private var tasksCreated: Int64 = 0
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
        derive(entry, into: &events)
        for event in events { try emit(event) }
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
                reset()
                appPID = pid
                add(.processLaunch, entry, reason: "unknown", pid: pid, into: &events)
            } else if !launched {
                launched = true
                appPID = entry.pid
                add(.processLaunch, entry, reason: "unknown", pid: entry.pid, into: &events)
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
        default: break
        }
    }

    private mutating func reset() {
        mask = nil
        ui = .inactive
        hasBeenActive = false
        suspended = false
        openTasks.removeAll()
        snapshotTasks.removeAll()
        tasksCreated = 0
    }

    /// Marks a state the capture began in rather than a transition it shows.
    static let stateAtCaptureStart = Attribute("state_at_capture_start", .bool(true))
    /// Marks a task id numbered by the importer because the log redacted it.
    static let taskIDInferred = Attribute("task_id_inferred", .bool(true))

    /// UIKit's deactivation reason 11: the app is not in the foreground (set while launching until its scene
    /// is shown, and added just before `UIApplicationDidEnterBackgroundNotification`; see oslog-mapping.md).
    static let backgroundReason: Int64 = 11

    // MARK: - The app's own process

    private mutating func appLine(_ entry: LogLine, _ message: String, into events: inout [LifecycleEvent]) {
        if message.hasPrefix("Deactivation reason ") {
            if !ownCallbacks { deactivation(entry, message, into: &events) }
        } else if message.hasPrefix("Created background task ") {
            tasksCreated += 1
            let redacted = message.hasPrefix("Created background task <private>")
            guard let id = redacted ? tasksCreated : Self.integer(after: "taskID = ", in: message) else {
                return notUnderstood(entry)
            }
            tasksCreated = max(tasksCreated, id)
            var name = Self.field(after: "taskName = ", in: message)
            if name == "<private>" { name = nil }
            if name == "com.apple.uikit.applicationSnapshot" {
                snapshotTasks.insert(id)
                add(.systemSnapshot, entry, into: &events)
                return
            }
            openTasks.insert(id)
            add(.taskBegin, entry, task: id, name: name, attribute: redacted ? Self.taskIDInferred : nil, into: &events)
        } else if message.hasPrefix("Ending background task with UIBackgroundTaskIdentifier: ") {
            guard let id = Self.integer(after: "UIBackgroundTaskIdentifier: ", in: message) else {
                return notUnderstood(entry)
            }
            if snapshotTasks.remove(id) != nil { return }
            // A task created before the capture began has no beginning here: its end alone says nothing.
            guard openTasks.remove(id) != nil else { return }
            add(.taskEnd, entry, task: id, into: &events)
        } else if message.hasPrefix("lifetrace ") {
            guard var event = LifetraceLogLine.parse(message) else { return notUnderstood(entry) }
            event.t = time(entry)
            switch event.kind.layer {
            case .app, .scene, .swiftui: ownCallbacks = true
            default: break
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
        if mask == nil, old == 0, ui == .inactive, !launchSeen, message.hasSuffix("lifecycle event: 1") {
            // The capture begins mid-session with the app active (an animated resignation from no reasons; a
            // launch starts from no reasons without animation): state it once, so what follows is ordered.
            add(.appDidBecomeActive, entry, attribute: Self.stateAtCaptureStart, into: &events)
            ui = .active
            hasBeenActive = true
        }
        let background: Int64 = 1 << Self.backgroundReason
        if mask == nil, old & background != 0, ui == .inactive, !launchSeen {
            // The capture begins with the app in the background.
            add(.appDidEnterBackground, entry, attribute: Self.stateAtCaptureStart, into: &events)
            ui = .background
        }
        mask = new
        if reason == Self.backgroundReason, hasBeenActive || ui == .background {
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
            hasBeenActive = true
        } else if old == 0, new != 0, ui == .active {
            add(.appWillResignActive, entry, into: &events)
            ui = .inactive
        }
    }

    // MARK: - SpringBoard and runningboardd

    /// `[0x86c20be40:(FBSceneManager):sceneID:com.example.app-default] Scene lifecycle state did change: Foreground`
    private mutating func springBoard(_ entry: LogLine, _ message: String, into events: inout [LifecycleEvent]) {
        if let bundle = selection.bundleID, message.hasPrefix("Bootstrapping app<" + bundle + "> with intent ") {
            // SpringBoard starts the process: its launch, and why (the intent).
            launchSeen = true
            guard !launched else { return }
            launched = true
            let intent = message.dropFirst("Bootstrapping app<".count + bundle.utf8.count + "> with intent ".count)
                .prefix { $0 != " " }
            add(.processLaunch, entry, reason: Self.launchReason(intent: intent), into: &events)
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
            add(.processExit, entry, reason: "terminated", into: &events)
            launched = false
            appPID = nil
            reset()
            launchSeen = false
            return
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
                add(.appDidBecomeActive, entry, attribute: Attribute("process_role", .string(String(name))), into: &events)
                ui = .active
                hasBeenActive = true
            }
        } else if state.isEmpty {
            notUnderstood(entry)
        }
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
        event.attrs = (event.attrs ?? []) + [Attribute("log_line", .int(Int64(entry.number)))]
        return event
    }

    private mutating func add(_ kind: EventKind, _ entry: LogLine, task: Int64? = nil, name: String? = nil,
                              reason: String? = nil, pid: Int64? = nil, attribute: Attribute? = nil,
                              into events: inout [LifecycleEvent]) {
        let event = LifecycleEvent(t: time(entry), kind: kind, task: task, name: name, reason: reason, pid: pid,
                                   attrs: attribute.map { [$0] })
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
