import LifetraceCore
import LifetraceSimulator
import LifetraceTestSupport
import Testing

/// Each fault produces exactly the mistake it names, in its showcase scenario.
@Suite struct FaultInjectionTests {
    static func run(_ fault: Fault, style: AppStyle = .uikitScenes) throws -> [LifecycleEvent] {
        try SimulatorTests.events(fault.showcase, style: style, faults: [fault])
    }

    @Test func slowBackgroundHandlerOverrunsFiveSecondsAndIsKilled() throws {
        let events = try Self.run(.slowBackgroundHandler)
        let index = try #require(events.firstIndex { $0.kind == .sceneDidEnterBackground })
        #expect(try #require(events[index].dur) > 5_000_000_000)
        let exit = try #require(events[index...].first { $0.kind == .processExit })
        #expect(exit.reason == "background-handler-timeout")
        #expect(!events[index...].prefix { $0.kind != .processExit }.contains { $0.kind == .systemSnapshot })
        // The user's next tap is a cold launch.
        #expect(events.filter { $0.kind == .processLaunch }.count == 2)
    }

    @Test func leakedBackgroundTaskExpiresUnendedAndTheAppIsKilled() throws {
        let events = try Self.run(.leakedBackgroundTask)
        #expect(events.filter { $0.kind.layer == .task }.map(\.eventName) == ["task.begin", "task.expire"])
        let exit = try #require(events.first { $0.kind == .processExit })
        #expect(exit.reason == "background-task-assertion-timeout")
        #expect(exit.t - events.first { $0.kind == .taskBegin }!.t > 27_000_000_000)
    }

    @Test func taskEndedTwiceEndsOneIDTwice() throws {
        let ends = try Self.run(.taskEndedTwice).filter { $0.kind == .taskEnd }
        #expect(ends.count == 2 && ends[0].task == ends[1].task)
    }

    @Test func backgroundWithoutResignSkipsTheResign() throws {
        let callbacks = SimulatorTests.callbacks(try Self.run(.backgroundWithoutResign))
        let background = try #require(callbacks.firstIndex(of: "scene.didEnterBackground S1"))
        #expect(callbacks[background - 1] == "scene.didBecomeActive S1")
    }

    @Test func setupOnEveryForegroundReconnectsOnReturn() throws {
        let names = try Self.run(.setupOnEveryForeground).map(\.eventName)
        #expect(names.filter { $0 == "scene.willConnect" }.count == 2)
        let resume = try #require(names.firstIndex(of: "process.resume"))
        #expect(names[resume + 1] == "scene.willConnect")
    }

    @Test func appDelegateUIWithManifestFiresDeadCallbacks() throws {
        let events = try Self.run(.appDelegateUIWithManifest)
        #expect(events.contains { $0.kind == .appDidBecomeActive })
        #expect(events.contains { $0.kind == .appDidEnterBackground })
    }

    @Test func workWhileSuspendedEmitsBetweenSuspendAndResume() throws {
        let names = try Self.run(.workWhileSuspended).map(\.eventName)
        let suspend = try #require(names.firstIndex(of: "process.suspend"))
        #expect(names[suspend + 1] == "custom.timer-fired")
    }

    @Test func disconnectInForegroundDisconnectsAnActiveScene() throws {
        let callbacks = SimulatorTests.callbacks(try Self.run(.disconnectInForeground))
        let disconnect = try #require(callbacks.firstIndex(of: "scene.didDisconnect S2"))
        #expect(callbacks[..<disconnect].last(where: { $0.hasSuffix("S2") }) == "scene.didBecomeActive S2")
    }

    @Test(arguments: [AppStyle.uikitScenes, .appDelegate, .swiftui])
    func saveInWillTerminateOnlyMovesTheSave(style: AppStyle) throws {
        let events = try Self.run(.saveInWillTerminateOnly, style: style)
        let saves = events.indices.filter { events[$0].eventName == "custom.save" }
        let terminate = try #require(events.firstIndex { $0.kind == .appWillTerminate })
        #expect(saves.count == 1 && saves[0] > terminate)
        let healthy = try SimulatorTests.events(.terminateFromBackground, style: style)
        let healthySave = try #require(healthy.firstIndex { $0.eventName == "custom.save" })
        #expect(healthySave < healthy.firstIndex { $0.kind == .appWillTerminate }!)
    }
}
