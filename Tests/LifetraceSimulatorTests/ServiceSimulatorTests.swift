import LifetraceCore
import LifetraceSimulator
import Testing

/// The service simulator writes what swift-service-lifecycle's `ServiceGroup` does under an orchestrator, as
/// `LifetraceServiceLifecycle` records it: services started in order, shut down in reverse order one after the
/// other, a thrown error cancelling the group, Kubernetes' restart back-off, systemd's kill at `TimeoutStopSec`.
@Suite struct ServiceSimulatorTests {
    static let s: Int64 = 1_000_000_000

    static func events(
        _ scenario: ServiceScenario, seed: UInt64 = 1, groundTruth: Bool = true,
        drainFactor: Double = 1
    ) throws -> [LifecycleEvent] {
        var events: [LifecycleEvent] = []
        try ServiceSimulator(
            configuration: .init(
                scenario: scenario, seed: seed, groundTruth: groundTruth,
                drainFactor: drainFactor)
        ).run { events.append($0) }
        return events
    }

    /// The lifecycle events of each process, as "kind service" lines, processes split at each launch.
    static func processes(_ events: [LifecycleEvent]) -> [[LifecycleEvent]] {
        var processes: [[LifecycleEvent]] = []
        for event in events {
            if event.kind == .processLaunch { processes.append([]) }
            processes[processes.count - 1].append(event)
        }
        return processes
    }

    @Test(arguments: ServiceScenario.allCases)
    func everyScenarioIsOrderedValidAndReproducible(scenario: ServiceScenario) throws {
        for seed: UInt64 in 1...5 {
            let events = try Self.events(scenario, seed: seed)
            #expect(zip(events, events.dropFirst()).allSatisfy { $0.t <= $1.t })
            #expect(events.allSatisfy { $0.problem == nil })
            #expect(try Self.events(scenario, seed: seed) == events)
            let exits = events.filter { $0.kind == .processExit }.map { $0.reason ?? "" }
            #expect(exits == scenario.exitReasons, "\(scenario) seed \(seed)")
            #expect(Self.processes(events).count == scenario.exitReasons.count)
        }
        #expect(try Self.events(scenario, seed: 1) != Self.events(scenario, seed: 2))
    }

    /// Each process starts http then worker; a graceful shutdown asks worker, waits for its stop, then asks http;
    /// nothing of a service follows its stop.
    @Test(arguments: [ServiceScenario.rollingDeploy, .slowDrain])
    func aGracefulShutdownGoesInReverseStartOrder(scenario: ServiceScenario) throws {
        for process in Self.processes(try Self.events(scenario)) {
            let lifecycle = process.filter { $0.kind.layer == .service && $0.kind != .serviceReady }
                .map { "\($0.eventName) \($0.scene ?? $0.reason ?? "")" }
            #expect(
                lifecycle == [
                    "service.start http", "service.start worker", "service.signal SIGTERM",
                    "service.shutdown worker", "service.stopped worker", "service.shutdown http",
                    "service.stopped http",
                ])
            #expect(process.filter { $0.kind == .serviceReady }.count == 2)
            for name in ["http", "worker"] {
                let stop = try #require(process.first { $0.kind == .serviceStopped && $0.scene == name })
                #expect(!process.contains { $0.scene == name && $0.t > stop.t })
            }
        }
    }

    /// Kubernetes' back-off between restarts: 10 s, then doubling (20, 40, 80 s), from one exit to the next launch.
    @Test func aCrashLoopRestartsAfterKubernetesBackOff() throws {
        let events = try Self.events(.crashLoop, groundTruth: false)
        let launches = events.filter { $0.kind == .processLaunch }.map(\.t)
        let exits = events.filter { $0.kind == .processExit }.map(\.t)
        #expect(zip(exits, launches.dropFirst()).map { $1 - $0 } == [10, 20, 40, 80].map { $0 * Self.s })
        for process in Self.processes(events) {
            let worker = try #require(process.first { $0.kind == .serviceStopped && $0.scene == "worker" })
            let http = try #require(process.first { $0.kind == .serviceStopped && $0.scene == "http" })
            #expect(worker.attrs?.contains(Attribute(Attribute.Key.error, .string("connection refused"))) == true)
            #expect(http.attrs?.contains(Attribute(Attribute.Key.cancelled, .bool(true))) == true && http.t > worker.t)
            #expect(!process.contains { $0.kind == .serviceReady && $0.scene == "worker" })
        }
    }

    /// systemd kills at 90 s after SIGTERM: nothing is recorded after it but ground truth's exit, and heartbeats
    /// run every second until then.
    @Test func anOverrunStopsAtTheKill() throws {
        let events = try Self.events(.shutdownOverrun)
        let signal = try #require(events.first { $0.kind == .serviceSignal })
        #expect(events.last == LifecycleEvent(t: signal.t + 90 * Self.s, kind: .processExit, reason: "SIGKILL"))
        let beats = events.filter { $0.kind == .heartbeat && $0.t > signal.t }.map(\.t)
        #expect(zip(beats, beats.dropFirst()).allSatisfy { $1 - $0 == Self.s })
        #expect(beats.count >= 89)
    }

    /// A drain factor of 1.5 makes each drain 1.5 times as long (a rolling deploy's drains are far from the kill).
    @Test func aDrainFactorLengthensEachDrain() throws {
        func drains(_ events: [LifecycleEvent]) -> [Int64] {
            ["worker", "http"].compactMap { name in
                guard let asked = events.first(where: { $0.kind == .serviceShutdown && $0.scene == name }),
                    let stopped = events.first(where: { $0.kind == .serviceStopped && $0.scene == name })
                else { return nil }
                return stopped.t - asked.t
            }
        }
        for seed: UInt64 in 1...5 {
            let base = drains(try Self.events(.rollingDeploy, seed: seed))
            let slower = drains(try Self.events(.rollingDeploy, seed: seed, drainFactor: 1.5))
            #expect(base.count == 2 && slower.count == 2)
            for (b, n) in zip(base, slower) { #expect(abs(Double(n) - Double(b) * 1.5) <= 1) }
        }
    }
}
