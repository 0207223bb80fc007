import LifetraceCore

/// The process: launch, wake for a background event, suspension, resumption and termination.
extension SimulatedProcess {
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
            try scheduledTask(
                .bgRefreshBegin, .bgRefreshEnd,
                work: timing.logUniform(200 * TimingModel.millisecond, 20 * TimingModel.second))
        case "bgtask":
            try scheduledTask(
                .bgProcessingBegin, .bgProcessingEnd,
                work: timing.logUniform(5 * TimingModel.second, 120 * TimingModel.second))
        case "push": try instant(.custom) { $0.label = "remote-notification" }
        default: try instant(.custom) { $0.label = "location-update" }
        }
    }

    /// A BGTaskScheduler task: begins, works, completes.
    private mutating func scheduledTask(_ begin: EventKind, _ end: EventKind, work: Int64) throws {
        nextTaskID += 1
        let id = nextTaskID
        try instant(begin) { $0.task = id }
        try idle(work)
        try instant(end) { $0.task = id }
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
        try instant(.systemSnapshot) { $0.scene = scene }
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
        try truth(.processExit) { $0.reason = reason }
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
