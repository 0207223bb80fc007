import LifetraceCore

/// The scenes: connection, activation, the background and back, disconnection, and SwiftUI's phases.
extension SimulatedProcess {
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
            try callback(
                .sceneWillConnect, scene: id,
                dur: timing.logUniform(2 * TimingModel.millisecond, 60 * TimingModel.millisecond))
            try callback(.sceneWillEnterForeground, scene: id)
        case .swiftui:
            // The scene starts `.inactive`; onChange does not report the initial value (Apple, “ScenePhase”).
            scenes[index].reportedPhase = .inactive
        case .appDelegate:
            // The launch itself puts the app in the inactive state (Apple, “Preparing your UI to run in the foreground”).
            break
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
        let duration =
            slow ? timing.uniform(5200 * TimingModel.millisecond, 8 * TimingModel.second) : timing.backgroundHandler()
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
        let snapshotScene = sceneID(index)
        try instant(.systemSnapshot) { $0.scene = snapshotScene }
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
        if style == .swiftui {
            scenes[index].reportedPhase = .inactive
            try updateAggregate()
        }
    }

    /// The user closes a window for good: the scene disconnects and its session is discarded.
    mutating func discardSession(_ index: Int) throws {
        let id = scenes[index].id
        if scenes[index].state != .unattached { try disconnect(index) }
        if style.hasSceneManifest { try callback(.appDidDiscardSceneSessions, scene: id) }
        scenes.remove(at: index)
    }

    /// SwiftUI: onChange(of: scenePhase) for the scene, then for the App when the aggregate changes.
    private mutating func reportPhase(
        _ index: Int, dur: Int64? = nil,
        during work: ((inout SimulatedProcess) throws -> Void)? = nil
    ) throws {
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
        let aggregate: ActivationState =
            states.contains(.active) ? .active : states.contains(.inactive) ? .inactive : .background
        guard aggregate != aggregatePhase else { return }
        aggregatePhase = aggregate
        try callback(.swiftuiScenePhase, phase: Self.phase(aggregate))
    }

    /// The phase SwiftUI reports for a scene in `state` (a scene not attached reports none: `.inactive`, where it
    /// starts).
    private static func phase(_ state: ActivationState) -> ScenePhase {
        ScenePhase(state) ?? .inactive
    }

    /// `applicationDidReceiveMemoryWarning`.
    mutating func callbackMemoryWarning() throws {
        try callback(.appDidReceiveMemoryWarning)
    }
}
