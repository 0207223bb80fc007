// The simulated process and its scenes in one file: each stimulus moves both, and the callbacks it emits depend
// on the two together.

import LifetraceCore

/// A model of an iOS process and its scenes that turns stimuli into the callbacks an app receives.
///
/// The model keeps the process phase and every scene's state, and emits, per ``AppStyle``, the callbacks the
/// seeds document for each transition, with durations from ``TimingModel``. Ground-truth events
/// (`process.suspend`, `process.resume`, `process.exit`) are emitted only when asked for; heartbeats stop while
/// the process is suspended, as a real recorder's would. Faults change exactly the step they name.
struct SimulatedProcess {
    let style: AppStyle
    let faults: Set<Fault>
    let groundTruth: Bool
    let heartbeatInterval: Int64?
    var timing: TimingModel
    /// Callbacks whose handlers take this many times as long (``Simulator/Configuration/slowedHandlers``).
    var slowedHandlers: [EventKind: Double] = [:]
    private let sink: (LifecycleEvent) throws -> Void

    private(set) var t: Int64 = 0
    private(set) var process: ProcessPhase = .notRunning
    private(set) var scenes: [SceneSlot] = []
    private(set) var eventCount = 0
    private var aggregatePhase: UIState = .inactive
    private var nextHeartbeat: Int64 = .max
    private var nextTaskID: Int64 = 0
    private var nextSceneNumber = 1
    private var discardedSessions: [String] = []
    private var pid: Int64 = 0

    init(
        style: AppStyle,
        faults: Set<Fault>,
        groundTruth: Bool,
        heartbeatInterval: Int64?,
        seed: UInt64,
        sink: @escaping (LifecycleEvent) throws -> Void
    ) {
        self.style = style
        self.faults = faults
        self.groundTruth = groundTruth
        self.heartbeatInterval = heartbeatInterval
        self.timing = TimingModel(rng: SplitMix64(seed: seed))
        self.sink = sink
    }

    var isRunning: Bool { process == .running }
    var foregroundScenes: [Int] { scenes.indices.filter { scenes[$0].state.isForeground } }
    var activeScenes: [Int] { scenes.indices.filter { scenes[$0].state == .active } }
    var connectedScenes: [Int] { scenes.indices.filter { scenes[$0].state != .unattached } }

    // MARK: - Emission

    private mutating func emit(_ event: LifecycleEvent) throws {
        try heartbeats(upTo: event.t)
        try sink(event)
        eventCount += 1
    }

    private mutating func heartbeats(upTo time: Int64) throws {
        guard let heartbeatInterval, process == .running else { return }
        while nextHeartbeat <= time {
            try sink(LifecycleEvent(t: nextHeartbeat, kind: .heartbeat))
            eventCount += 1
            nextHeartbeat += heartbeatInterval
        }
    }

    /// Lets `duration` pass with nothing but heartbeats.
    mutating func idle(_ duration: Int64) throws {
        t += duration
        try heartbeats(upTo: t)
    }

    /// A callback: emitted when it begins, with its handler's duration; time moves past its end.
    private mutating func callback(_ kind: EventKind, scene: String? = nil, phase: ScenePhase? = nil, dur: Int64? = nil,
                                   during work: ((inout SimulatedProcess) throws -> Void)? = nil) throws {
        var duration = dur ?? timing.handler()
        if let factor = slowedHandlers[kind] { duration = Int64((Double(duration) * factor).rounded()) }
        let start = t
        try emit(LifecycleEvent(t: start, kind: kind, scene: scene, dur: duration, phase: phase))
        if let work {
            t = start + duration / 2
            try work(&self)
        }
        t = start + duration + timing.gap()
    }

    private mutating func instant(_ kind: EventKind, scene: String? = nil, task: Int64? = nil, name: String? = nil,
                                  reason: String? = nil, pid: Int64? = nil, label: String? = nil) throws {
        try emit(LifecycleEvent(t: t, kind: kind, label: label, scene: scene, task: task, name: name, reason: reason, pid: pid))
        t += timing.gap()
    }

    private mutating func truth(_ kind: EventKind, reason: String? = nil) throws {
        guard groundTruth else { return }
        try emit(LifecycleEvent(t: t, kind: kind, reason: reason))
    }

    /// The app persists its state (a `custom.save` marker), as it should in its background handler.
    private mutating func save() throws {
        try instant(.custom, label: "save")
    }

    // MARK: - Process

    /// The system starts the process; a user launch brings the first scene to the foreground and makes it active.
    mutating func launch(reason: String) throws {
        precondition(process == .notRunning)
        pid = timing.uniform(300, 60_000)
        process = .running
        if let heartbeatInterval { nextHeartbeat = t + heartbeatInterval }
        try emit(LifecycleEvent(t: t, kind: .processLaunch, reason: reason, pid: pid))
        t += timing.uniform(1 * TimingModel.millisecond, 4 * TimingModel.millisecond)
        try callback(.appWillFinishLaunching)
        try callback(.appDidFinishLaunching, dur: timing.launchHandler())
        if style.hasSceneManifest, !discardedSessions.isEmpty {
            // Sessions the user swiped away while the app was not running are reported after launch.
            for session in discardedSessions { try callback(.appDidDiscardSceneSessions, scene: session) }
            discardedSessions.removeAll()
        }
        if reason == "user" {
            let index = scenes.isEmpty ? addScene() : 0
            try connect(index)
            try activate(index)
        } else {
            if style == .appDelegate { try enterBackgroundAppDelegateForEvent() }
            try handleBackgroundEvent(reason)
            try snapshotAndSuspend(scene: nil)
        }
    }

    /// Apple, “About the background execution sequence”: a suspended app woken for an event is resumed in the background; an app-delegate app gets
    /// `applicationDidEnterBackground` again.
    mutating func wakeForEvent(_ reason: String) throws {
        precondition(process == .suspended)
        try resume()
        if style == .appDelegate {
            try callback(.appDidEnterBackground, dur: timing.backgroundHandler())
        }
        try handleBackgroundEvent(reason)
        try snapshotAndSuspend(scene: nil)
    }

    private mutating func enterBackgroundAppDelegateForEvent() throws {
        let index = scenes.isEmpty ? addScene() : 0
        scenes[index].state = .background
        try callback(.appDidEnterBackground, dur: timing.backgroundHandler())
    }

    private mutating func handleBackgroundEvent(_ reason: String) throws {
        switch reason {
        case "fetch":
            try scheduledTask(.bgRefreshBegin, .bgRefreshEnd,
                              work: timing.logUniform(200 * TimingModel.millisecond, 20 * TimingModel.second))
        case "bgtask":
            try scheduledTask(.bgProcessingBegin, .bgProcessingEnd,
                              work: timing.logUniform(5 * TimingModel.second, 120 * TimingModel.second))
        case "push": try instant(.custom, label: "remote-notification")
        default: try instant(.custom, label: "location-update")
        }
    }

    /// A BGTaskScheduler task: begins, works, completes.
    private mutating func scheduledTask(_ begin: EventKind, _ end: EventKind, work: Int64) throws {
        nextTaskID += 1
        let id = nextTaskID
        try instant(begin, task: id)
        try idle(work)
        try instant(end, task: id)
    }

    private mutating func resume() throws {
        // The recorder's timer starts again from the resumption, not from where it stopped.
        if let heartbeatInterval { nextHeartbeat = t + heartbeatInterval }
        process = .running
        try truth(.processResume)
        t += timing.gap()
    }

    /// The snapshot, then suspension shortly after, unless a task keeps the app running.
    private mutating func snapshotAndSuspend(scene: String?) throws {
        try instant(.systemSnapshot, scene: scene)
        try idle(timing.suspendDelay())
        try suspend()
    }

    mutating func suspend() throws {
        guard process == .running else { return }
        try heartbeats(upTo: t)
        try truth(.processSuspend)
        process = .suspended
        if faults.contains(.workWhileSuspended) {
            // A timer the app failed to invalidate fires while it should be frozen.
            t += timing.uniform(2 * TimingModel.second, 20 * TimingModel.second)
            try emit(LifecycleEvent(t: t, kind: .custom, label: "timer-fired"))
        }
        t += timing.gap()
    }

    /// The process ends: from suspended without any callback; from running background after
    /// `applicationWillTerminate` when `willTerminate` is set.
    mutating func terminate(reason: String, willTerminate: Bool = false, discardSessions: Bool = false) throws {
        guard process != .notRunning else { return }
        if willTerminate {
            precondition(process == .running)
            try callback(.appWillTerminate, dur: timing.backgroundHandler()) { model in
                if model.faults.contains(.saveInWillTerminateOnly) { try model.save() }
            }
        }
        try heartbeats(upTo: t)
        try truth(.processExit, reason: reason)
        process = .notRunning
        aggregatePhase = .inactive
        for index in scenes.indices {
            scenes[index].state = .unattached
            scenes[index].reportedPhase = .inactive
        }
        if discardSessions, style.hasSceneManifest {
            discardedSessions = scenes.map(\.id)
            scenes.removeAll()
        }
        if style == .appDelegate { scenes.removeAll() }
        t += timing.gap()
    }

    // MARK: - Scenes

    mutating func addScene() -> Int {
        scenes.append(SceneSlot(id: style == .appDelegate ? "app" : "S\(nextSceneNumber)"))
        nextSceneNumber += 1
        return scenes.count - 1
    }

    private func sceneID(_ index: Int) -> String? {
        style == .appDelegate ? nil : scenes[index].id
    }

    /// unattached → foreground-inactive: `willConnectTo` then `willEnterForeground` (Apple, “Managing your app’s life cycle”, cold launch).
    mutating func connect(_ index: Int) throws {
        precondition(scenes[index].state == .unattached)
        let id = scenes[index].id
        switch style {
        case .uikitScenes:
            if !scenes[index].everConnected { try callback(.appConfigurationForConnecting, scene: id) }
            try callback(.sceneWillConnect, scene: id, dur: timing.logUniform(2 * TimingModel.millisecond, 60 * TimingModel.millisecond))
            try callback(.sceneWillEnterForeground, scene: id)
        case .swiftui:
            // The scene starts `.inactive`; onChange does not report the initial value (Apple, “ScenePhase”).
            scenes[index].reportedPhase = .inactive
        case .appDelegate:
            break  // The launch itself puts the app in the inactive state (Apple, “Preparing your UI to run in the foreground”).
        }
        scenes[index].everConnected = true
        scenes[index].state = .inactive
    }

    /// foreground-inactive → active.
    mutating func activate(_ index: Int) throws {
        precondition(scenes[index].state == .inactive)
        scenes[index].state = .active
        switch style {
        case .uikitScenes:
            try callback(.sceneDidBecomeActive, scene: scenes[index].id)
            if faults.contains(.appDelegateUIWithManifest) { try callback(.appDidBecomeActive) }
        case .appDelegate: try callback(.appDidBecomeActive)
        case .swiftui: try reportPhase(index)
        }
    }

    /// active → foreground-inactive.
    mutating func resignActive(_ index: Int, silently: Bool = false) throws {
        precondition(scenes[index].state == .active)
        scenes[index].state = .inactive
        guard !silently else { return }
        switch style {
        case .uikitScenes:
            try callback(.sceneWillResignActive, scene: scenes[index].id)
            if faults.contains(.appDelegateUIWithManifest) { try callback(.appWillResignActive) }
        case .appDelegate: try callback(.appWillResignActive)
        case .swiftui: try reportPhase(index)
        }
    }

    /// foreground → background: resign if active, then `didEnterBackground` (the save point) and the snapshot.
    mutating func enterBackground(_ index: Int) throws {
        if scenes[index].state == .active {
            try resignActive(index, silently: faults.contains(.backgroundWithoutResign))
        }
        precondition(scenes[index].state == .inactive)
        scenes[index].state = .background
        let slow = faults.contains(.slowBackgroundHandler)
        let duration = slow ? timing.uniform(5200 * TimingModel.millisecond, 8 * TimingModel.second) : timing.backgroundHandler()
        let saves = !faults.contains(.saveInWillTerminateOnly)
        let work: (inout SimulatedProcess) throws -> Void = { model in if saves { try model.save() } }
        switch style {
        case .uikitScenes:
            try callback(.sceneDidEnterBackground, scene: scenes[index].id, dur: duration, during: work)
            if faults.contains(.appDelegateUIWithManifest) { try callback(.appDidEnterBackground) }
        case .appDelegate: try callback(.appDidEnterBackground, dur: duration, during: work)
        case .swiftui: try reportPhase(index, dur: duration, during: work)
        }
        if slow {
            // Apple, “applicationDidEnterBackground(_:)”: "If the method does not return before time runs out your app is terminated".
            try terminate(reason: "background-handler-timeout")
            return
        }
        try instant(.systemSnapshot, scene: sceneID(index))
    }

    /// background → foreground-inactive.
    mutating func enterForeground(_ index: Int) throws {
        precondition(scenes[index].state == .background)
        scenes[index].state = .inactive
        switch style {
        case .uikitScenes:
            if faults.contains(.setupOnEveryForeground) { try callback(.sceneWillConnect, scene: scenes[index].id) }
            try callback(.sceneWillEnterForeground, scene: scenes[index].id)
            if faults.contains(.appDelegateUIWithManifest) { try callback(.appWillEnterForeground) }
        case .appDelegate: try callback(.appWillEnterForeground)
        case .swiftui: try reportPhase(index)
        }
    }

    /// background → unattached: the session survives and may reconnect (Apple, “Managing your app’s life cycle”).
    mutating func disconnect(_ index: Int) throws {
        let inForeground = scenes[index].state.isForeground
        precondition(scenes[index].state == .background || faults.contains(.disconnectInForeground) && inForeground)
        scenes[index].state = .unattached
        if style == .uikitScenes { try callback(.sceneDidDisconnect, scene: scenes[index].id) }
        if style == .swiftui { scenes[index].reportedPhase = .inactive; try updateAggregate() }
    }

    /// The user closes a window for good: the scene disconnects and its session is discarded.
    mutating func discardSession(_ index: Int) throws {
        let id = scenes[index].id
        if scenes[index].state != .unattached { try disconnect(index) }
        if style.hasSceneManifest { try callback(.appDidDiscardSceneSessions, scene: id) }
        scenes.remove(at: index)
    }

    /// SwiftUI: onChange(of: scenePhase) for the scene, then for the App when the aggregate changes.
    private mutating func reportPhase(_ index: Int, dur: Int64? = nil,
                                      during work: ((inout SimulatedProcess) throws -> Void)? = nil) throws {
        let state = scenes[index].state
        guard state != .unattached, state != scenes[index].reportedPhase else { return }
        scenes[index].reportedPhase = state
        try callback(.swiftuiScenePhase, scene: scenes[index].id, phase: Self.phase(state), dur: dur, during: work)
        try updateAggregate()
    }

    /// The App-level phase: active if any scene is, background only when every scene is (Apple, “Managing your app’s life cycle”).
    private mutating func updateAggregate() throws {
        let states = scenes.map(\.state).filter { $0 != .unattached }
        guard !states.isEmpty else { return }
        let aggregate: UIState = states.contains(.active) ? .active : states.contains(.inactive) ? .inactive : .background
        guard aggregate != aggregatePhase else { return }
        aggregatePhase = aggregate
        try callback(.swiftuiScenePhase, phase: Self.phase(aggregate))
    }

    private static func phase(_ state: UIState) -> ScenePhase {
        switch state {
        case .active: .active
        case .inactive, .unattached: .inactive
        case .background: .background
        }
    }

    /// `applicationDidReceiveMemoryWarning`.
    mutating func callbackMemoryWarning() throws {
        try callback(.appDidReceiveMemoryWarning)
    }

    // MARK: - Background tasks

    /// Apple, “Extending your app’s background execution time”: `beginBackgroundTask` before long work, `endBackgroundTask` when done.
    mutating func backgroundTask(name: String, work: Int64, expires: Bool) throws {
        nextTaskID += 1
        let id = nextTaskID
        try instant(.taskBegin, task: id, name: name)
        if faults.contains(.leakedBackgroundTask) {
            // Never ended: the expiration handler runs and does not end it either; the system kills the app.
            try idle(timing.expiry())
            try instant(.taskExpire, task: id)
            try idle(timing.uniform(1 * TimingModel.second, 3 * TimingModel.second))
            try terminate(reason: "background-task-assertion-timeout")
            return
        }
        if expires {
            try idle(timing.expiry())
            try instant(.taskExpire, task: id)
        } else {
            try idle(work)
        }
        try instant(.taskEnd, task: id)
        if faults.contains(.taskEndedTwice) { try instant(.taskEnd, task: id) }
    }

    /// After the app reached the background: the snapshot was taken; suspension follows shortly.
    mutating func settle() throws {
        guard process == .running else { return }
        try idle(timing.suspendDelay())
        try suspend()
    }

    /// Resumes a suspended app for the user: the process resumes, the scene comes to the foreground.
    mutating func returnToForeground(_ index: Int) throws {
        if process == .notRunning {
            // The system killed the app meanwhile: the user's tap is a cold launch.
            try launch(reason: "user")
            return
        }
        if process == .suspended { try resume() }
        if scenes.isEmpty { _ = addScene() }
        if scenes[index].state == .unattached { try connect(index) } else { try enterForeground(index) }
        try activate(index)
    }
}
