import LifetraceCore

/// A model of an iOS process and its scenes that turns stimuli into the callbacks an app receives.
///
/// The model keeps the process phase and every scene's state, and emits, per ``AppStyle``, the callbacks
/// Apple's documentation gives for each transition, with durations from ``TimingModel``. Ground-truth events
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

    var t: Int64 = 0
    var process: ProcessPhase = .notRunning
    var scenes: [SceneSlot] = []
    private(set) var eventCount = 0
    var aggregatePhase: ActivationState = .inactive
    var nextHeartbeat: Int64 = .max
    var nextTaskID: Int64 = 0
    var nextSceneNumber = 1
    var discardedSessions: [String] = []
    var pid: Int64 = 0

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

    mutating func emit(_ event: LifecycleEvent) throws {
        try heartbeats(upTo: event.t)
        try sink(event)
        eventCount += 1
    }

    mutating func heartbeats(upTo time: Int64) throws {
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
    mutating func callback(
        _ kind: EventKind, scene: String? = nil, phase: ScenePhase? = nil, dur: Int64? = nil,
        during work: ((inout SimulatedProcess) throws -> Void)? = nil
    ) throws {
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

    /// An instant event of `kind` now, its optional fields set by `fields`; time moves on by a gap.
    mutating func instant(_ kind: EventKind, _ fields: (inout LifecycleEvent) -> Void = { _ in }) throws {
        var event = LifecycleEvent(t: t, kind: kind)
        fields(&event)
        try emit(event)
        t += timing.gap()
    }

    /// A ground-truth event of `kind` now (``groundTruth``), its optional fields set by `fields`.
    mutating func truth(_ kind: EventKind, _ fields: (inout LifecycleEvent) -> Void = { _ in }) throws {
        guard groundTruth else { return }
        var event = LifecycleEvent(t: t, kind: kind)
        fields(&event)
        try emit(event)
    }

    /// The app persists its state (a `custom.save` marker), as it should in its background handler.
    mutating func save() throws {
        try instant(.custom) { $0.label = "save" }
    }
}
