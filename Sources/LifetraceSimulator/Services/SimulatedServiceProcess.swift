import LifetraceCore

/// A model of a service process — a `ServiceGroup` running ``ServiceScenario/services`` — that writes what
/// `LifetraceServiceLifecycle` records of it: each service's start, readiness, shutdown request and stop, the
/// signal the group handled, the process's exit when the group returns, and a heartbeat every flush interval while
/// the process runs. A process its supervisor kills records nothing more; its `process.exit` (reason `SIGKILL`) is
/// ground truth, written only when asked for.
///
/// The group follows swift-service-lifecycle's “Adopting ServiceLifecycle in applications”: services start in
/// order, are asked to shut down one after the other in reverse start order, each once the previous has stopped;
/// a service that throws cancels the group (`failureTerminationBehavior` `cancelGroup`, the default).
struct SimulatedServiceProcess {
    private static let second = TimingModel.second
    private static let millisecond = TimingModel.millisecond

    let scenario: ServiceScenario
    let groundTruth: Bool
    let heartbeatInterval: Int64
    /// Multiplies each service's drain (from its shutdown request to its stop).
    let drainFactor: Double
    /// Multiplies each service's start-up (from its start to its readiness).
    let readyFactor: Double
    private var timing: TimingModel
    private let sink: (LifecycleEvent) throws -> Void

    private(set) var eventCount = 0
    private var t: Int64 = 0
    private var running = false
    private var nextHeartbeat: Int64 = .max
    /// When each service of the running process started, in ``ServiceScenario/services`` order.
    private var started: [Int64] = []

    init(
        scenario: ServiceScenario, groundTruth: Bool, heartbeatInterval: Int64, drainFactor: Double,
        readyFactor: Double,
        seed: UInt64, sink: @escaping (LifecycleEvent) throws -> Void
    ) {
        self.scenario = scenario
        self.groundTruth = groundTruth
        self.heartbeatInterval = heartbeatInterval
        self.drainFactor = drainFactor
        self.readyFactor = readyFactor
        self.timing = TimingModel(rng: SplitMix64(seed: seed))
        self.sink = sink
    }

    // MARK: - Emission

    private mutating func emit(_ event: LifecycleEvent) throws {
        try heartbeats(upTo: event.t)
        try sink(event)
        eventCount += 1
    }

    private mutating func heartbeats(upTo time: Int64) throws {
        guard running else { return }
        while nextHeartbeat <= time {
            try sink(LifecycleEvent(t: nextHeartbeat, kind: .heartbeat))
            eventCount += 1
            nextHeartbeat += heartbeatInterval
        }
    }

    private mutating func gap() -> Int64 { timing.uniform(50_000, 2 * Self.millisecond) }

    private func scaled(_ duration: Int64, by factor: Double) -> Int64 { Int64((Double(duration) * factor).rounded()) }

    // MARK: - The scenarios

    /// Runs the scenario once, from no process running.
    mutating func play() throws {
        switch scenario {
        case .rollingDeploy:
            for revision in 0..<scenario.processCount {
                // The next revision's pod starts once the previous one is gone from this slot.
                if revision > 0 { t += timing.uniform(2 * Self.second, 20 * Self.second) }
                try launchAndStart()
                try serve(timing.logUniform(60 * Self.second, 30 * 60 * Self.second))
                // Kubernetes' default grace period, 30 s.
                // The worker finishes the job it holds (1 to 10 s); the server its in-flight requests.
                try shutDown(
                    drains: [
                        timing.logUniform(20 * Self.millisecond, 3 * Self.second),
                        timing.uniform(1 * Self.second, 10 * Self.second),
                    ],
                    killAfter: 30 * Self.second)
            }
        case .slowDrain:
            try launchAndStart()
            try serve(timing.logUniform(60 * Self.second, 2 * 3600 * Self.second))
            // systemd's default TimeoutStopSec, 90 s.
            try shutDown(
                drains: [
                    timing.logUniform(20 * Self.millisecond, 2 * Self.second),
                    timing.uniform(35 * Self.second, 80 * Self.second),
                ],
                killAfter: 90 * Self.second)
        case .crashLoop:
            for attempt in 0..<scenario.processCount {
                // Kubernetes, “Pod Lifecycle”: an exponential back-off delay (10s, 20s, 40s, …) capped at five minutes.
                if attempt > 0 { t += min(10 * Self.second << (attempt - 1), 300 * Self.second) }
                try launchAndFailAtStart()
            }
        case .shutdownOverrun:
            try launchAndStart()
            try serve(timing.logUniform(60 * Self.second, 2 * 3600 * Self.second))
            try shutDown(
                drains: [
                    timing.logUniform(20 * Self.millisecond, 2 * Self.second),
                    timing.uniform(120 * Self.second, 300 * Self.second),
                ],
                killAfter: 90 * Self.second)
        }
    }

    // MARK: - Steps

    /// The process starts (the recorder writes `process.launch`) and its group starts each service.
    private mutating func launch() throws {
        running = true
        nextHeartbeat = t + heartbeatInterval
        try emit(LifecycleEvent(t: t, kind: .processLaunch, reason: "unknown", pid: timing.uniform(300, 60_000)))
        t += timing.uniform(1 * Self.millisecond, 20 * Self.millisecond)
        started = []
        for (index, name) in ServiceScenario.services.enumerated() {
            started.append(t)
            try emit(
                LifecycleEvent(
                    t: t, kind: .serviceStart, scene: name,
                    attrs: [
                        Attribute(Attribute.Key.successTermination, .string("cancelGroup")),
                        Attribute(Attribute.Key.failureTermination, .string("cancelGroup")),
                        Attribute(Attribute.Key.groupIndex, .int(Int64(index))),
                    ]))
            t += gap()
        }
    }

    /// Launch, then each service says it is ready: the server in milliseconds, the worker once its queue is
    /// connected.
    private mutating func launchAndStart() throws {
        try launch()
        let readyAt = [
            started[0] + scaled(timing.logUniform(5 * Self.millisecond, 300 * Self.millisecond), by: readyFactor),
            started[1] + scaled(timing.logUniform(50 * Self.millisecond, 3 * Self.second), by: readyFactor),
        ]
        for index in readyAt.indices.sorted(by: { readyAt[$0] < readyAt[$1] }) {
            t = max(t, readyAt[index])
            try emit(LifecycleEvent(t: t, kind: .serviceReady, scene: ServiceScenario.services[index]))
        }
    }

    /// The process serves for `duration`: the worker marks each job it takes.
    private mutating func serve(_ duration: Int64) throws {
        let end = t + duration
        while true {
            let next = t + timing.logUniform(1 * Self.second, 30 * Self.second)
            guard next < end else { break }
            t = next
            try emit(LifecycleEvent(t: t, kind: .custom, label: "job", scene: "worker"))
        }
        t = end
        try heartbeats(upTo: t)
    }

    /// SIGTERM; the group asks each service to shut down in reverse start order, each draining for its entry of
    /// `drains` (in start order, scaled by ``drainFactor``). A process still shutting down `killAfter` after the
    /// signal is killed with SIGKILL by its supervisor: nothing more is recorded.
    private mutating func shutDown(drains: [Int64], killAfter: Int64) throws {
        let signalled = t
        let deadline = signalled + killAfter
        try emit(
            LifecycleEvent(
                t: t, kind: .serviceSignal, reason: "SIGTERM",
                attrs: [Attribute(Attribute.Key.action, .string("graceful-shutdown"))]))
        t += gap()
        for index in ServiceScenario.services.indices.reversed() {
            let name = ServiceScenario.services[index]
            try emit(LifecycleEvent(t: t, kind: .serviceShutdown, scene: name, reason: "SIGTERM"))
            let stop = t + max(1, scaled(drains[index], by: drainFactor))
            while true {
                let next = t + timing.logUniform(500 * Self.millisecond, 5 * Self.second)
                guard next < stop, next < deadline else { break }
                t = next
                try emit(LifecycleEvent(t: t, kind: .custom, label: "drain", scene: name))
            }
            guard stop < deadline else { return try killed(at: deadline) }
            t = stop
            try emit(
                LifecycleEvent(
                    t: t, kind: .serviceStopped, scene: name,
                    attrs: [Attribute(Attribute.Key.ranNanoseconds, .int(t - started[index]))]))
            t += gap()
        }
        try exit(reason: "exit", error: nil)
    }

    /// The worker throws before it is ready: the group cancels the server and throws the worker's error.
    private mutating func launchAndFailAtStart() throws {
        try launch()
        let failure = started[1] + timing.logUniform(20 * Self.millisecond, 500 * Self.millisecond)
        let serverReady =
            started[0] + scaled(timing.logUniform(5 * Self.millisecond, 300 * Self.millisecond), by: readyFactor)
        if serverReady < failure {
            t = max(t, serverReady)
            try emit(LifecycleEvent(t: t, kind: .serviceReady, scene: "http"))
        }
        t = max(t, failure)
        let error = "connection refused"
        try emit(
            LifecycleEvent(
                t: t, kind: .serviceStopped, scene: "worker",
                attrs: [
                    Attribute(Attribute.Key.error, .string(error)),
                    Attribute(Attribute.Key.ranNanoseconds, .int(t - started[1])),
                ]))
        t += gap()
        try emit(
            LifecycleEvent(
                t: t, kind: .serviceStopped, scene: "http",
                attrs: [
                    Attribute(Attribute.Key.error, .string("CancellationError()")),
                    Attribute(Attribute.Key.cancelled, .bool(true)),
                    Attribute(Attribute.Key.ranNanoseconds, .int(t - started[0])),
                ]))
        t += gap()
        try exit(reason: "error", error: error)
    }

    /// The group returned: the library records the exit and flushes.
    private mutating func exit(reason: String, error: String?) throws {
        try emit(
            LifecycleEvent(
                t: t, kind: .processExit, reason: reason,
                attrs: error.map { [Attribute(Attribute.Key.error, .string($0))] }))
        running = false
    }

    /// The supervisor's SIGKILL at `time`: heartbeats up to it are the process's last signs of life.
    private mutating func killed(at time: Int64) throws {
        try heartbeats(upTo: time)
        t = time
        running = false
        if groundTruth { try emit(LifecycleEvent(t: t, kind: .processExit, reason: "SIGKILL")) }
    }
}
