import LifetraceCore
import LifetraceFormat
import LifetraceSimulator
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// The simulator writes the callback orders the seeds document.
@Suite struct SimulatorTests {
    static func events(
        _ scenario: Scenario, style: AppStyle? = nil, seed: UInt64 = 1, groundTruth: Bool = true,
        heartbeat: Int64? = nil, faults: [Fault] = [], minimumEvents: Int? = nil
    ) throws -> [LifecycleEvent] {
        var events: [LifecycleEvent] = []
        let simulator = Simulator(
            configuration: .init(
                scenario: scenario, style: style, seed: seed, groundTruth: groundTruth,
                heartbeatInterval: heartbeat, faults: faults, minimumEvents: minimumEvents))
        try simulator.run { events.append($0) }
        return events
    }

    /// The callbacks only: what an app's own code sees (no ground truth, markers or snapshots).
    static func callbacks(_ events: [LifecycleEvent]) -> [String] {
        events.filter { [.app, .scene, .swiftui, .task].contains($0.kind.layer) }.map {
            $0.eventName + ($0.scene.map { " " + $0 } ?? "") + ($0.phase.map { " " + $0.name } ?? "")
        }
    }

    static let allCombinations: [(Scenario, AppStyle)] = Scenario.allCases.flatMap { scenario in
        AppStyle.allCases.map { (scenario, $0) }
    }

    @Test(arguments: allCombinations)
    func everyScenarioAndStyleFollowsTheSceneStateTable(scenario: Scenario, style: AppStyle) throws {
        for seed: UInt64 in 1...5 {
            var oracle = LifecycleOracle()
            let events = try Self.events(scenario, style: style, seed: seed, heartbeat: 1_000_000_000)
            #expect(oracle.check(events) == [], "\(scenario) \(style) seed \(seed)")
            #expect(zip(events, events.dropFirst()).allSatisfy { $0.t <= $1.t })
            #expect(events.allSatisfy { $0.problem == nil })
        }
    }

    /// Apple, “Managing your app’s life cycle”: didFinishLaunchingWithOptions → scene(_:willConnectTo:options:) →
    /// sceneWillEnterForeground → sceneDidBecomeActive.
    @Test func coldLaunchFollowsTheFirstColdLaunchOrder() throws {
        let events = try Self.events(.coldLaunch)
        #expect(
            events.map(\.eventName) == [
                "process.launch", "app.willFinishLaunching", "app.didFinishLaunching", "app.configurationForConnecting",
                "scene.willConnect", "scene.willEnterForeground", "scene.didBecomeActive",
            ])
    }

    /// Apple, “Managing your app’s life cycle” (sceneWillResignActive → sceneDidEnterBackground → [Suspended — no
    /// callback]) and "User returns to the app" (sceneWillEnterForeground → sceneDidBecomeActive; willConnectTo
    /// "does not fire again on resume").
    @Test func backgroundAndReturnFollowsTheSeedsOrder() throws {
        let events = try Self.events(.backgroundAndReturn)
        let names = events.map(\.eventName)
        let firstSuspend = try #require(names.firstIndex(of: "process.suspend"))
        #expect(
            Array(names[7..<firstSuspend]) == [
                "scene.willResignActive", "scene.didEnterBackground", "custom.save", "system.snapshot",
            ])
        #expect(
            Array(names[(firstSuspend + 1)...].prefix(3)) == [
                "process.resume", "scene.willEnterForeground", "scene.didBecomeActive",
            ])
        #expect(names.filter { $0 == "scene.willConnect" }.count == 1)
    }

    /// Apple, “Managing your app’s life cycle”: sceneWillResignActive → [call ends] → sceneDidBecomeActive;
    /// "sceneDidEnterBackground is never called".
    @Test func aPhoneCallNeverReachesTheBackground() throws {
        let callbacks = Self.callbacks(try Self.events(.phoneCall))
        #expect(Array(callbacks.suffix(2)) == ["scene.willResignActive S1", "scene.didBecomeActive S1"])
        #expect(!callbacks.contains { $0.hasPrefix("scene.didEnterBackground") })
    }

    /// Apple, “About the background execution sequence”, launched into the background: didFinishLaunching, applicationDidEnterBackground, the event,
    /// the snapshot, suspension; "never touching Active" (Apple, “Managing your app’s life cycle”).
    @Test func backgroundLaunchOfAnAppDelegateAppIsNeverActive() throws {
        let events = try Self.events(.backgroundLaunch, style: .appDelegate)
        let first = events.prefix { $0.kind != .processExit }.map(\.eventName)
        #expect(
            first == [
                "process.launch", "app.willFinishLaunching", "app.didFinishLaunching", "app.didEnterBackground",
                "bg.refresh.begin", "bg.refresh.end", "system.snapshot", "process.suspend",
            ])
        #expect(events.filter { $0.kind == .processLaunch }.map(\.reason) == ["fetch", "push", "location"])
        #expect(!events.contains { $0.kind == .appDidBecomeActive || $0.kind == .sceneDidBecomeActive })
    }

    @Test(arguments: AppStyle.allCases)
    func backgroundLaunchesAreNeverActiveInAnyStyle(style: AppStyle) throws {
        let events = try Self.events(.backgroundLaunch, style: style)
        #expect(
            !events.contains { [.appDidBecomeActive, .sceneDidBecomeActive].contains($0.kind) || $0.phase == .active })
    }

    /// Apple, “Managing your app’s life cycle”: applicationWillTerminate "is only called when the app is terminated while actively running in
    /// the background (not suspended)".
    @Test(arguments: AppStyle.allCases)
    func terminationFromSuspendedHasNoCallback(style: AppStyle) throws {
        let events = try Self.events(.terminateFromSuspended, style: style)
        #expect(!events.contains { $0.kind == .appWillTerminate })
        #expect(Array(events.suffix(2).map(\.eventName)) == ["process.suspend", "process.exit"])
        let fromBackground = try Self.events(.terminateFromBackground, style: style)
        #expect(Array(fromBackground.suffix(2).map(\.eventName)) == ["app.willTerminate", "process.exit"])
        #expect(!fromBackground.contains { $0.kind == .processSuspend })
    }

    /// Apple, “Extending your app’s background execution time”: every beginBackgroundTask has one endBackgroundTask; the expiration handler ends the task.
    @Test func backgroundTasksArePairedAndExpiryEndsTheTask() throws {
        let ok = try Self.events(.backgroundTask).filter { $0.kind.layer == .task }.map(\.eventName)
        #expect(ok == ["task.begin", "task.end"])
        let expiring = try Self.events(.backgroundTaskExpiry).filter { $0.kind.layer == .task }
        #expect(expiring.map(\.eventName) == ["task.begin", "task.expire", "task.end"])
        let begin = expiring[0].t
        #expect(expiring[1].t - begin > 25_000_000_000 && expiring[1].t - begin < 30_000_000_000)
    }

    /// Apple, “Managing your app’s life cycle”, SwiftUI: "scenePhase starts at .inactive ... The first change onChange catches is the
    /// transition from .inactive to .active"; the App-level phase goes .background only when every scene has.
    @Test(arguments: 1...20)
    func swiftUIReportsNoInitialInactiveAndAnHonestAggregate(seed: Int) throws {
        let events = try Self.events(.swiftuiPhases, seed: UInt64(seed))
        var reported: [String: ScenePhase] = [:]
        var first: [String: ScenePhase] = [:]
        for event in events where event.kind == .swiftuiScenePhase {
            let key = event.scene ?? "<app>"
            if first[key] == nil { first[key] = event.phase }
            if let scene = event.scene { reported[scene] = event.phase }
            if event.scene == nil, event.phase == .background {
                #expect(reported.values.allSatisfy { $0 == .background }, "App background while a scene is not")
            }
            if event.scene == nil, event.phase == .active {
                #expect(reported.values.contains(.active))
            }
        }
        #expect(first.values.allSatisfy { $0 == .active })
        #expect(first.keys.contains("<app>") && first.count >= 3)
    }

    /// Apple, “Managing your app’s life cycle”: "Multiple Windows — the same app runs twice, side by side. Two scenes."
    @Test func multiWindowConnectsAndDiscardsASecondScene() throws {
        let callbacks = Self.callbacks(try Self.events(.multiWindow))
        #expect(callbacks.contains("scene.willConnect S2"))
        #expect(callbacks.contains("scene.didDisconnect S2"))
        #expect(callbacks.contains("app.didDiscardSceneSessions S2"))
        let disconnect = try #require(callbacks.firstIndex(of: "scene.didDisconnect S2"))
        #expect(callbacks[..<disconnect].last(where: { $0.hasSuffix("S2") }) == "scene.didEnterBackground S2")
    }

    @Test func theSameSeedGivesByteIdenticalTraces() throws {
        func bytes(seed: UInt64) throws -> [UInt8] {
            let simulator = Simulator(
                configuration: .init(
                    scenario: .random, seed: seed, groundTruth: true,
                    heartbeatInterval: 1_000_000_000, minimumEvents: 20_000))
            let writer = try BinaryTraceWriter(sink: MemorySink(), header: simulator.header)
            try simulator.run { try writer.append($0) }
            try writer.close()
            return writer.memoryBytes!
        }
        #expect(try bytes(seed: 9) == bytes(seed: 9))
        #expect(try bytes(seed: 9) != bytes(seed: 10))
    }

    @Test func groundTruthIsWrittenOnlyWhenAskedFor() throws {
        let without = try Self.events(.random, seed: 4, groundTruth: false, minimumEvents: 5000)
        #expect(!without.contains { [.processSuspend, .processResume, .processExit].contains($0.kind) })
        let with = try Self.events(.random, seed: 4, groundTruth: true, minimumEvents: 5000)
        #expect(with.contains { $0.kind == .processSuspend })
        #expect(Self.callbacks(with) == Self.callbacks(without).prefix(Self.callbacks(with).count).map { $0 })
    }

    /// Heartbeats stop while suspended, as a real recorder's would, and come at their interval otherwise.
    @Test func heartbeatsStopWhileSuspended() throws {
        let events = try Self.events(.random, seed: 2, heartbeat: 500_000_000, minimumEvents: 50_000)
        var suspendedAt: Int64?
        var lastBeat: Int64?
        for event in events {
            switch event.kind {
            case .processSuspend: suspendedAt = event.t
            case .processResume, .processExit, .processLaunch:
                suspendedAt = nil
                lastBeat = nil
            case .heartbeat:
                #expect(suspendedAt == nil)
                if let lastBeat { #expect(event.t - lastBeat == 500_000_000) }
                lastBeat = event.t
            default: break
            }
        }
    }

    @Test func theHeaderRecordsWhatWasSimulated() {
        let simulator = Simulator(
            configuration: .init(
                scenario: .backgroundTask, style: .appDelegate, seed: 77,
                groundTruth: true, faults: [.leakedBackgroundTask]))
        let header = simulator.header
        #expect(header.sceneManifest == false)
        #expect(header[.scenario] == .string("background-task"))
        #expect(header[.style] == .string("app-delegate"))
        #expect(header[.seed] == .int(77))
        #expect(header[.faults] == .array([.string("leaked-background-task")]))
    }
}
