import LifetraceAnalysis
import LifetraceCore
import LifetraceSimulator
import Testing

/// SwiftUI's App-level scene phase against its scenes (LT030), in all three values, from Apple's “ScenePhase”: the
/// App reads “active if any scene is active”, inactive when it “contains no scene instances in the
/// ScenePhase.active phase” (“ScenePhase.inactive”), background when all its scenes are. The App's onChange and a
/// scene's are separate callbacks in an order SwiftUI does not document: a legal trace may show either first.
/// The expected findings are worked out by hand.
@Suite struct AppPhaseTests {
    static let header = """
        {"lifetrace":1,"scene_manifest":true}
        {"t":0,"ev":"app.didFinishLaunching"}
        """

    static func check(_ lines: String) throws -> AnalysisResult {
        try SeedSequenceTests.check(header + "\n" + lines)
    }

    static func ids(_ result: AnalysisResult) -> [String] {
        result.findings.map(\.rule.id.rawValue)
    }

    /// Legal: the scenes move first, or the App first, for each of the three values; two scenes where one stays
    /// active while the other leaves; the App's phases alone; an App inactive while every scene known is in the
    /// background (a scene connecting starts unreported at inactive).
    @Test(arguments: [
        // Scenes first: A active, App active; A inactive, App inactive; A background, App background.
        """
        {"t":10,"ev":"swiftui.scenePhase","scene":"A","phase":"active"}
        {"t":11,"ev":"swiftui.scenePhase","phase":"active"}
        {"t":20,"ev":"swiftui.scenePhase","scene":"A","phase":"inactive"}
        {"t":21,"ev":"swiftui.scenePhase","phase":"inactive"}
        {"t":30,"ev":"swiftui.scenePhase","scene":"A","phase":"background"}
        {"t":31,"ev":"swiftui.scenePhase","phase":"background"}
        """,
        // The App first, each time.
        """
        {"t":10,"ev":"swiftui.scenePhase","phase":"active"}
        {"t":11,"ev":"swiftui.scenePhase","scene":"A","phase":"active"}
        {"t":20,"ev":"swiftui.scenePhase","phase":"inactive"}
        {"t":21,"ev":"swiftui.scenePhase","scene":"A","phase":"inactive"}
        {"t":30,"ev":"swiftui.scenePhase","phase":"background"}
        {"t":31,"ev":"swiftui.scenePhase","scene":"A","phase":"background"}
        {"t":40,"ev":"heartbeat"}
        """,
        // The App first, then two scenes before it is supported: A and B leave the foreground.
        """
        {"t":10,"ev":"swiftui.scenePhase","scene":"A","phase":"active"}
        {"t":11,"ev":"swiftui.scenePhase","scene":"B","phase":"active"}
        {"t":12,"ev":"swiftui.scenePhase","phase":"active"}
        {"t":20,"ev":"swiftui.scenePhase","phase":"inactive"}
        {"t":21,"ev":"swiftui.scenePhase","scene":"A","phase":"inactive"}
        {"t":22,"ev":"swiftui.scenePhase","scene":"B","phase":"inactive"}
        {"t":23,"ev":"heartbeat"}
        """,
        // Only the App's phases recorded, no scene's: nothing shows where the scenes are.
        """
        {"t":10,"ev":"swiftui.scenePhase","phase":"active"}
        {"t":20,"ev":"swiftui.scenePhase","phase":"inactive"}
        {"t":30,"ev":"swiftui.scenePhase","phase":"background"}
        """,
        // Inactive while every scene known is in the background: not proven (a new scene connects inactive).
        """
        {"t":10,"ev":"swiftui.scenePhase","scene":"A","phase":"active"}
        {"t":11,"ev":"swiftui.scenePhase","phase":"active"}
        {"t":20,"ev":"swiftui.scenePhase","scene":"A","phase":"inactive"}
        {"t":21,"ev":"swiftui.scenePhase","phase":"inactive"}
        {"t":30,"ev":"swiftui.scenePhase","scene":"A","phase":"background"}
        {"t":31,"ev":"swiftui.scenePhase","phase":"background"}
        {"t":40,"ev":"swiftui.scenePhase","phase":"inactive"}
        {"t":41,"ev":"heartbeat"}
        """,
    ])
    func legalOrdersAreNotFindings(_ lines: String) throws {
        let result = try Self.check(lines)
        #expect(Self.ids(result).isEmpty, "\(result.findings.map(\.message))")
    }

    /// An App-level inactive while a scene stays active until the App's next phase: LT030, reported at that
    /// next phase (event #7, the App's inactive being #5), another scene's move and other events between.
    @Test func inactiveWhileASceneStaysActiveIsLT030() throws {
        let result = try Self.check(
            """
            {"t":10,"ev":"swiftui.scenePhase","scene":"A","phase":"active"}
            {"t":11,"ev":"swiftui.scenePhase","phase":"active"}
            {"t":20,"ev":"swiftui.scenePhase","scene":"B","phase":"active"}
            {"t":21,"ev":"swiftui.scenePhase","scene":"B","phase":"inactive"}
            {"t":22,"ev":"swiftui.scenePhase","phase":"inactive"}
            {"t":30,"ev":"custom.save"}
            {"t":40,"ev":"swiftui.scenePhase","phase":"active"}
            """)
        #expect(Self.ids(result) == ["LT030"])
        let finding = try #require(result.findings.first)
        #expect(finding.eventIndex == 7)
        #expect(
            finding.message.hasPrefix(
                "the App-level phase became inactive at event #5 (t=0.000000s) while 1 scene is active"))
    }

    /// The same, a scene other than the active one moving meanwhile, and the trace ending: LT030 at its end.
    @Test func inactiveWhileASceneIsActiveToTheTracesEndIsLT030() throws {
        let result = try Self.check(
            """
            {"t":10,"ev":"swiftui.scenePhase","scene":"A","phase":"active"}
            {"t":11,"ev":"swiftui.scenePhase","phase":"active"}
            {"t":21,"ev":"swiftui.scenePhase","phase":"inactive"}
            {"t":22,"ev":"swiftui.scenePhase","scene":"B","phase":"background"}
            {"t":30,"ev":"heartbeat"}
            """)
        #expect(Self.ids(result) == ["LT030"])
        #expect(result.findings.first?.message.hasSuffix("before the trace's end") == true)
    }

    /// The process's end settles it too: the App's inactive, the scene still active, then `process.exit`.
    @Test func inactiveWhileASceneIsActiveToTheProcessExitIsLT030() throws {
        let result = try Self.check(
            """
            {"t":10,"ev":"swiftui.scenePhase","scene":"A","phase":"active"}
            {"t":11,"ev":"swiftui.scenePhase","phase":"active"}
            {"t":21,"ev":"swiftui.scenePhase","phase":"inactive"}
            {"t":30,"ev":"process.exit","reason":"exit"}
            """)
        #expect(Self.ids(result) == ["LT030"])
        #expect(result.findings.first?.eventIndex == 4)
    }

    /// Active while no scene is active, and no scene becomes active before the App's next phase: LT030; the
    /// App's background while a scene stays in the foreground: LT030.
    @Test func activeAndBackgroundAgainstTheirScenesAreLT030() throws {
        let active = try Self.check(
            """
            {"t":10,"ev":"swiftui.scenePhase","scene":"A","phase":"active"}
            {"t":11,"ev":"swiftui.scenePhase","phase":"active"}
            {"t":20,"ev":"swiftui.scenePhase","scene":"A","phase":"inactive"}
            {"t":21,"ev":"swiftui.scenePhase","phase":"inactive"}
            {"t":30,"ev":"swiftui.scenePhase","phase":"active"}
            {"t":40,"ev":"swiftui.scenePhase","phase":"inactive"}
            """)
        #expect(Self.ids(active) == ["LT030"])
        #expect(active.findings.first?.eventIndex == 6)
        #expect(active.findings.first?.message.contains("became active at event #5") == true)
        let background = try Self.check(
            """
            {"t":10,"ev":"swiftui.scenePhase","scene":"A","phase":"active"}
            {"t":11,"ev":"swiftui.scenePhase","phase":"active"}
            {"t":20,"ev":"swiftui.scenePhase","scene":"A","phase":"inactive"}
            {"t":21,"ev":"swiftui.scenePhase","phase":"background"}
            {"t":29,"ev":"swiftui.scenePhase","scene":"A","phase":"active"}
            {"t":30,"ev":"swiftui.scenePhase","phase":"active"}
            """)
        #expect(Self.ids(background) == ["LT030"])
        #expect(background.findings.first?.message.contains("while 1 scene is in the foreground (inactive)") == true)
    }
}

/// The simulator writes each scene's onChange before the App's; SwiftUI documents no order, so the same runs with
/// every App-level phase moved before the scene change that caused it are legal too: no LT030 (the judgement
/// held until the App's next phase, whichever came first).
@Suite struct AppPhaseOrderTests {
    /// `events` with each App-level `swiftui.scenePhase` moved before the scene-level one just before it (past
    /// that one's `handler.return`), at its time.
    static func appFirst(_ events: [LifecycleEvent]) -> (events: [LifecycleEvent], moved: Int) {
        var events = events
        var moved = 0
        for i in events.indices where events[i].kind == .swiftuiScenePhase && events[i].scene == nil {
            var j = i - 1
            while j >= 0, events[j].kind == .handlerReturn { j -= 1 }
            guard j >= 0, events[j].kind == .swiftuiScenePhase, events[j].scene != nil else { continue }
            var app = events.remove(at: i)
            app.t = events[j].t
            events.insert(app, at: j)
            moved += 1
        }
        return (events, moved)
    }

    @Test(arguments: [Scenario.random, .multiWindow, .swiftuiPhases], [UInt64(1), 2, 3, 4, 5])
    func theAppsCallbackFirstIsLegalToo(scenario: Scenario, seed: UInt64) throws {
        let simulator = Simulator(configuration: .init(scenario: scenario, style: .swiftui, seed: seed))
        var events: [LifecycleEvent] = []
        try simulator.run { events.append($0) }
        let (reordered, moved) = Self.appFirst(events)
        #expect(moved > 0)
        for trace in [events, reordered] {
            let result = AnalysisHarness.analyze(trace, header: simulator.header)
            #expect(
                !result.findings.contains { $0.rule.id == .appPhaseAgainstScenes },
                "\(result.findings.filter { $0.rule.id == .appPhaseAgainstScenes }.map(\.message))")
        }
    }
}
