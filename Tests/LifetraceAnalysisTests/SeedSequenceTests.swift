import LifetraceAnalysis
import LifetraceCore
import LifetraceTestSupport
import Testing

/// Hand-written traces of the seeds' sequences: the legal ones have no finding, the broken ones a finding of
/// the right rule at the right event and time.
@Suite struct SeedSequenceTests {
    static let launch = """
        {"lifetrace":1,"scene_manifest":true}
        {"t":0,"ev":"process.launch","reason":"user"}
        {"t":10,"ev":"app.didFinishLaunching","dur":5}
        {"t":20,"ev":"scene.willConnect","scene":"S1"}
        {"t":30,"ev":"scene.willEnterForeground","scene":"S1"}
        {"t":40,"ev":"scene.didBecomeActive","scene":"S1"}
        """

    static func check(_ text: String) throws -> AnalysisResult {
        let (header, events) = try AnalysisHarness.parse(text)
        return AnalysisHarness.analyze(events, header: header)
    }

    /// Legal sequences of Apple, “About the background execution sequence” and Apple, “Managing your app’s life cycle” are not findings.
    @Test(arguments: [
        // Apple, “Managing your app’s life cycle”: resign → active, no background.
        """
        {"t":50,"ev":"scene.willResignActive","scene":"S1"}
        {"t":90000000000,"ev":"scene.didBecomeActive","scene":"S1"}
        """,
        // Apple, “Managing your app’s life cycle”: no willConnect on return.
        """
        {"t":50,"ev":"scene.willResignActive","scene":"S1"}
        {"t":60,"ev":"scene.didEnterBackground","scene":"S1","dur":1000}
        {"t":99000000000,"ev":"scene.willEnterForeground","scene":"S1"}
        {"t":99000000100,"ev":"scene.didBecomeActive","scene":"S1"}
        """,
        // Apple, “Managing your app’s life cycle”: a disconnected scene may reconnect.
        """
        {"t":50,"ev":"scene.willResignActive","scene":"S1"}
        {"t":60,"ev":"scene.didEnterBackground","scene":"S1"}
        {"t":70,"ev":"scene.didDisconnect","scene":"S1"}
        {"t":80000000000,"ev":"scene.willConnect","scene":"S1"}
        {"t":80000000010,"ev":"scene.willEnterForeground","scene":"S1"}
        {"t":80000000020,"ev":"scene.didBecomeActive","scene":"S1"}
        """,
    ])
    func legalSequencesAreNotFindings(continuation: String) throws {
        let result = try Self.check(Self.launch + "\n" + continuation)
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
    }

    /// Apple, “About the background execution sequence”: launched into the background for a fetch, then resumed from suspension for another event:
    /// applicationDidEnterBackground each time, never active.
    @Test func backgroundLaunchAndResumeForEventsAreLegal() throws {
        let result = try Self.check(
            """
            {"lifetrace":1,"scene_manifest":false}
            {"t":0,"ev":"process.launch","reason":"fetch"}
            {"t":10,"ev":"app.didFinishLaunching","dur":5}
            {"t":20,"ev":"app.didEnterBackground","dur":5}
            {"t":30,"ev":"bg.refresh.begin","task":1}
            {"t":40,"ev":"bg.refresh.end","task":1}
            {"t":50,"ev":"system.snapshot"}
            {"t":600000000000,"ev":"app.didEnterBackground","dur":5}
            {"t":600000000100,"ev":"custom.location-update"}
            """)
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
        #expect(result.suspensionCount == 1)
        #expect(result.totals.active == 0)
    }

    /// sceneDidEnterBackground without sceneWillResignActive: LT003 at event #5 (0-based), t = 60.
    @Test func aMissingResignIsLT003AtTheBackgroundEvent() throws {
        let result = try Self.check(
            Self.launch + """

                {"t":60,"ev":"scene.didEnterBackground","scene":"S1","dur":1000}
                """)
        let finding = try #require(result.findings.first)
        #expect(result.findings.count == 1)
        #expect(finding.rule.id == "LT003")
        #expect(finding.severity == .error)
        #expect(finding.eventIndex == 5)
        #expect(finding.t == 60)
        #expect(finding.scene == "S1")
        #expect(finding.context.map(\.index) == [2, 3, 4, 5])
        #expect(finding.message == "scene.didEnterBackground while scene is active")
    }

    /// A 6.2 s didEnterBackground handler against the 5 s budget: measured, budget and share.
    @Test func aSlowBackgroundHandlerShowsMeasuredBudgetAndShare() throws {
        let result = try Self.check(
            Self.launch + """

                {"t":50,"ev":"scene.willResignActive","scene":"S1"}
                {"t":60,"ev":"scene.didEnterBackground","scene":"S1","dur":6200000000}
                """)
        let finding = try #require(result.findings.first)
        #expect(finding.rule.id == "LT050")
        #expect(finding.measured == 6_200_000_000 && finding.budget == 5_000_000_000)
        #expect(finding.budgetShare == 1.24)
    }

    /// The same handler, written at a flush while it ran (`unfinished`) and its duration brought by
    /// `handler.return` when it returned: the same finding; a handler within the budget gives none.
    @Test(arguments: [(6_200_000_000 as Int64, true), (4_900_000_000, false)])
    func aHandlerReturnBringsTheDurationToTheBudget(dur: Int64, over: Bool) throws {
        let result = try Self.check(
            Self.launch + """

                {"t":50,"ev":"scene.willResignActive","scene":"S1"}
                {"t":60,"ev":"scene.didEnterBackground","scene":"S1","attrs":{"unfinished":true}}
                {"t":\(60 + dur),"ev":"handler.return","scene":"S1","dur":\(dur),"name":"scene.didEnterBackground"}
                """)
        #expect(result.findings.map(\.rule.id) == (over ? ["LT050"] : []))
        if over {
            #expect(result.findings[0].measured == dur)
            #expect(result.findings[0].message == "scene.didEnterBackground handler took 6.20s, over its 5.00s")
        }
        #expect(result.longestHandlers.first?.name == "scene.didEnterBackground")
    }

    @Test(arguments: [
        ("{\"t\":50,\"ev\":\"scene.didBecomeActive\",\"scene\":\"S1\"}", "LT001"),
        ("{\"t\":50,\"ev\":\"scene.willEnterForeground\",\"scene\":\"S1\"}", "LT004"),
        ("{\"t\":50,\"ev\":\"scene.didDisconnect\",\"scene\":\"S1\"}", "LT005"),
        ("{\"t\":50,\"ev\":\"scene.didBecomeActive\",\"scene\":\"S9\"}", "LT006"),
        ("{\"t\":50,\"ev\":\"scene.willConnect\",\"scene\":\"S1\"}", "LT007"),
        ("{\"t\":50,\"ev\":\"app.didFinishLaunching\"}", "LT010"),
        ("{\"t\":50,\"ev\":\"app.willTerminate\"}", "LT012"),
        ("{\"t\":50,\"ev\":\"app.didBecomeActive\"}", "LT020"),
        ("{\"t\":50,\"ev\":\"task.end\",\"task\":3}", "LT040"),
    ])
    func eachBrokenOrderIsItsRule(line: String, rule: String) throws {
        let result = try Self.check(Self.launch + "\n" + line)
        #expect(result.findings.map(\.rule.id.rawValue) == [rule], "\(result.findings.map(\.message))")
        #expect(result.findings.first?.eventIndex == 5)
    }

    @Test func aSceneCallbackBeforeDidFinishLaunchingIsLT011() throws {
        let result = try Self.check(
            """
            {"lifetrace":1,"scene_manifest":true}
            {"t":0,"ev":"process.launch","reason":"user"}
            {"t":20,"ev":"scene.willConnect","scene":"S1"}
            """)
        #expect(result.findings.map(\.rule.id) == ["LT011"])
    }

    /// A task open when the app is launched again: the process was killed with it. Last seen alive as the task
    /// began, it is no leak (it may have died a moment later); seen alive 31 s into the background with it, it is.
    @Test func aTaskOpenAtTheEndOfTheProcessIsALeakOnlyPastItsBudget() throws {
        let relaunch = #"{"t":900000000000,"ev":"process.launch","reason":"user"}"#
        let opened =
            Self.launch + """

                {"t":50,"ev":"scene.willResignActive","scene":"S1"}
                {"t":60,"ev":"scene.didEnterBackground","scene":"S1"}
                {"t":70,"ev":"task.begin","task":1,"name":"upload"}
                """
        let young = try Self.check(opened + "\n" + relaunch)
        #expect(young.findings.map(\.rule.id) == [])
        #expect(young.processes.first?.end == .killedWithBackgroundTask)
        let old = try Self.check(opened + "\n" + #"{"t":31000000070,"ev":"heartbeat"}"# + "\n" + relaunch)
        #expect(old.findings.map(\.rule.id) == ["LT041"])
        #expect(
            old.findings.first?.message
                == #"background task 1 "upload", begun at t=0.000000s, was never ended: it had run 31.00s in the background, over its 30.00s, and was still open when its process ended"#
        )
        #expect(old.processes.first?.end == .killedWithBackgroundTask)
    }

    @Test func swiftUIAggregateBackgroundWhileASceneIsActiveIsLT030() throws {
        let result = try Self.check(
            """
            {"lifetrace":1,"scene_manifest":true}
            {"t":0,"ev":"app.didFinishLaunching"}
            {"t":10,"ev":"swiftui.scenePhase","scene":"A","phase":"active"}
            {"t":20,"ev":"swiftui.scenePhase","phase":"active"}
            {"t":30,"ev":"swiftui.scenePhase","scene":"B","phase":"active"}
            {"t":40,"ev":"swiftui.scenePhase","scene":"A","phase":"inactive"}
            {"t":50,"ev":"swiftui.scenePhase","scene":"A","phase":"background"}
            {"t":60,"ev":"swiftui.scenePhase","phase":"background"}
            """)
        // Held until the App's phase is over, in case its scene's onChange comes after it: here the trace's end.
        #expect(result.findings.map(\.rule.id) == ["LT030"])
        #expect(result.findings.first?.message.hasPrefix("the App-level phase became background at event #6") == true)
    }

    @Test func timeIsAccountedPerState() throws {
        let result = try Self.check(
            Self.launch + """

                {"t":1000000040,"ev":"scene.willResignActive","scene":"S1"}
                {"t":3000000040,"ev":"scene.didBecomeActive","scene":"S1"}
                """)
        #expect(result.totals.active == 1_000_000_000)
        #expect(result.totals.inactive == 2_000_000_000 + 20)  // 2 s on the call, 20 ns connecting
        let scene = try #require(result.scenes.first { $0.scene == "S1" })
        #expect(scene.times.active == 1_000_000_000 && scene.times.inactive == 2_000_000_020)
    }

    /// A scene both UIKit and SwiftUI describe counts the time of each, and a trace spanning nearly the whole
    /// 64-bit range then sums past it: the total saturates instead of overflowing.
    @Test func timesSummedPastTheRangeSaturate() throws {
        let result = try Self.check(
            Self.launch + """

                {"t":50,"ev":"swiftui.scenePhase","scene":"S1","phase":"active"}
                {"t":9223372036854775000,"ev":"heartbeat"}
                """)
        let scene = try #require(result.scenes.first { $0.scene == "S1" })
        // Active from t = 40 (UIKit) and from t = 50 (SwiftUI) to t = 2^63 - 808: together past 2^63 - 1.
        #expect(scene.times.active == Int64.max)
    }
}
