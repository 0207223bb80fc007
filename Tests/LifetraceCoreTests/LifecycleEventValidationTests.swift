import LifetraceCore
import Testing

@Suite struct LifecycleEventValidationTests {
    @Test func wellFormedEventsHaveNoProblem() {
        #expect(LifecycleEvent(t: 0, kind: .heartbeat).problem == nil)
        #expect(LifecycleEvent(t: 5, kind: .sceneDidBecomeActive, scene: "S1", dur: 0).problem == nil)
        #expect(LifecycleEvent(t: 5, kind: .custom, label: "saved").problem == nil)
        #expect(LifecycleEvent(t: 5, kind: .swiftuiScenePhase, phase: .background).problem == nil)
        #expect(LifecycleEvent(t: .max - 10, kind: .appWillTerminate, dur: 10).problem == nil)
        #expect(LifecycleEvent(t: .max - 10, kind: .appWillTerminate, dur: 10).isPlainlyValid)
    }

    @Test(arguments: [
        (LifecycleEvent(t: -1, kind: .heartbeat), "t must not be negative"),
        (LifecycleEvent(t: 1, kind: .heartbeat, dur: -5), "dur must not be negative"),
        (
            LifecycleEvent(t: .max - 10, kind: .appWillTerminate, dur: 11),
            "t + dur (the handler's end) exceeds the signed 64-bit range"
        ),
        (LifecycleEvent(t: 1, kind: .sceneDidBecomeActive), "scene.didBecomeActive needs \"scene\""),
        (LifecycleEvent(t: 1, kind: .taskEnd), "task.end needs \"task\""),
        (LifecycleEvent(t: 1, kind: .processLaunch), "process.launch needs \"reason\""),
        (LifecycleEvent(t: 1, kind: .swiftuiScenePhase), "swiftui.scenePhase needs \"phase\""),
        (LifecycleEvent(t: 1, kind: .custom), "a custom event needs a name after \"custom.\""),
        (LifecycleEvent(t: 1, kind: .heartbeat, label: "x"), "only custom events carry a label"),
        (
            LifecycleEvent(t: 1, kind: .heartbeat, attrs: [Attribute("x", .double(.infinity))]),
            "attribute \"x\" is not a finite number"
        ),
        (
            LifecycleEvent(
                t: 1, kind: .heartbeat,
                attrs: [Attribute("a", .int(1)), Attribute("b", .int(2)), Attribute("a", .bool(true))]),
            "attribute \"a\" appears twice"
        ),
        (
            LifecycleEvent(t: 1, kind: .heartbeat, attrs: (0..<12).map { Attribute("k\($0 % 11)", .int(Int64($0))) }),
            "attribute \"k0\" appears twice"
        ),
    ])
    func malformedEventsNameTheirProblem(event: LifecycleEvent, problem: String) {
        #expect(event.problem == problem)
    }

    @Test func theTextOfAnEventCountsEveryString() {
        let event = LifecycleEvent(
            t: 0, kind: .custom, label: "ab", scene: "é",
            attrs: [Attribute("k", .string("xyz")), Attribute("n", .int(5))])
        #expect(event.textByteCount == 2 + 2 + 1 + 3 + 1)
    }

    @Test func repeatedKeysKeepTheirFirstPlaceAndLastValue() {
        let attrs = [
            Attribute("a", .int(1)), Attribute("b", .int(2)), Attribute("a", .int(3)), Attribute("c", .int(4)),
            Attribute("b", .int(5)),
        ]
        #expect(attrs.lastValuePerKey == [Attribute("a", .int(3)), Attribute("b", .int(5)), Attribute("c", .int(4))])
        #expect([Attribute("a", .int(1))].lastValuePerKey == [Attribute("a", .int(1))])
        #expect(attrs.firstRepeatedKey == "a" && attrs.lastValuePerKey.firstRepeatedKey == nil)
    }

    @Test func eventNameOfCustomEventsIncludesTheLabel() {
        #expect(LifecycleEvent(t: 0, kind: .custom, label: "call.incoming").eventName == "custom.call.incoming")
        #expect(LifecycleEvent(t: 0, kind: .appWillTerminate).eventName == "app.willTerminate")
    }
}
