import LifetraceCore

/// An independent check of a simulated trace against the lifecycle states of (Apple, “Managing your app’s life cycle”, domain-notes "Scene states"), written without the simulator's model.
struct LifecycleOracle {
    private(set) var problems: [String] = []
    private var scenes: [String: ActivationState] = [:]
    private var suspended = false
    private var running = false

    mutating func check(_ events: [LifecycleEvent]) -> [String] {
        for (index, event) in events.enumerated() { step(event, index) }
        return problems
    }

    private mutating func fail(_ index: Int, _ event: LifecycleEvent, _ message: String) {
        problems.append("event \(index) \(event.eventName) \(event.scene ?? ""): \(message)")
    }

    private mutating func step(_ event: LifecycleEvent, _ index: Int) {
        switch event.kind {
        case .processLaunch:
            if running { fail(index, event, "launch while running") }
            running = true
            suspended = false
            scenes = scenes.mapValues { _ in .unattached }
        case .processExit:
            running = false
            suspended = false
        case .processSuspend:
            suspended = true
        case .processResume:
            if !suspended { fail(index, event, "resume while not suspended") }
            suspended = false
        default:
            if suspended, event.kind != .heartbeat { fail(index, event, "callback while suspended") }
            if suspended, event.kind == .heartbeat { fail(index, event, "heartbeat while suspended") }
        }
        guard let scene = event.scene, event.kind.layer == .scene else { return }
        let state = scenes[scene] ?? .unattached
        func expect(_ allowed: [ActivationState], then next: ActivationState) {
            if !allowed.contains(state) { fail(index, event, "from \(state)") }
            scenes[scene] = next
        }
        switch event.kind {
        case .sceneWillConnect: expect([.unattached], then: .inactive)
        case .sceneWillEnterForeground: expect([.background, .inactive], then: .inactive)
        case .sceneDidBecomeActive: expect([.inactive], then: .active)
        case .sceneWillResignActive: expect([.active], then: .inactive)
        case .sceneDidEnterBackground: expect([.inactive], then: .background)
        case .sceneDidDisconnect: expect([.background], then: .unattached)
        default: break
        }
    }
}
