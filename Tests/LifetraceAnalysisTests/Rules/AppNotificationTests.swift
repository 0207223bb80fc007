import Foundation
import LifetraceAnalysis
import LifetraceCore
import LifetraceTestSupport
import Testing

/// A scene-based app captured from notifications (`"capture": "notifications"`): UIKit posts the UIApplication
/// notifications though it calls no app-delegate method, so they are not judged as callbacks (LT020); they are
/// the application's state, the aggregate of its scenes'. Apple, "applicationState": "In a scene-based app, this
/// property takes the value of the most active scene, which it determines from each scene's activationState
/// property." An application notification is judged (LT021) only where no order of posting around the scene's
/// own notification explains it: becoming active or resigning active while every scene is in the background,
/// entering the foreground or the background while a scene is active.
@Suite struct AppNotificationTests {
    /// Launched by the user, the scene active at 40, UIKit's application notification after it (event #5).
    static let launch = """
        {"lifetrace":1,"scene_manifest":true,"capture":"notifications"}
        {"t":0,"ev":"process.launch","reason":"user"}
        {"t":10,"ev":"app.didFinishLaunching"}
        {"t":20,"ev":"scene.willConnect","scene":"S1"}
        {"t":30,"ev":"scene.willEnterForeground","scene":"S1"}
        {"t":40,"ev":"scene.didBecomeActive","scene":"S1"}
        {"t":41,"ev":"app.didBecomeActive"}
        """

    static func check(_ text: String) throws -> AnalysisResult {
        try SeedSequenceTests.check(text)
    }

    /// To the background and back, the application's notifications after the scene's, or before them: UIKit's.
    @Test(arguments: [
        """
        {"t":50,"ev":"scene.willResignActive","scene":"S1"}
        {"t":51,"ev":"app.willResignActive"}
        {"t":60,"ev":"scene.didEnterBackground","scene":"S1"}
        {"t":61,"ev":"app.didEnterBackground"}
        {"t":100,"ev":"scene.willEnterForeground","scene":"S1"}
        {"t":101,"ev":"app.willEnterForeground"}
        {"t":110,"ev":"scene.didBecomeActive","scene":"S1"}
        {"t":111,"ev":"app.didBecomeActive"}
        """,
        """
        {"t":49,"ev":"app.willResignActive"}
        {"t":50,"ev":"scene.willResignActive","scene":"S1"}
        {"t":59,"ev":"app.didEnterBackground"}
        {"t":60,"ev":"scene.didEnterBackground","scene":"S1"}
        {"t":99,"ev":"app.willEnterForeground"}
        {"t":100,"ev":"scene.willEnterForeground","scene":"S1"}
        {"t":109,"ev":"app.didBecomeActive"}
        {"t":110,"ev":"scene.didBecomeActive","scene":"S1"}
        """,
        // A second scene, active beside the first: the application stays active, and resigns with the last.
        """
        {"t":50,"ev":"scene.willConnect","scene":"S2"}
        {"t":51,"ev":"scene.willEnterForeground","scene":"S2"}
        {"t":52,"ev":"scene.didBecomeActive","scene":"S2"}
        {"t":60,"ev":"scene.willResignActive","scene":"S1"}
        {"t":61,"ev":"scene.didEnterBackground","scene":"S1"}
        {"t":70,"ev":"scene.willResignActive","scene":"S2"}
        {"t":71,"ev":"app.willResignActive"}
        {"t":72,"ev":"scene.didEnterBackground","scene":"S2"}
        {"t":73,"ev":"app.didEnterBackground"}
        """,
    ])
    func uikitsOwnSequencesAreNoFinding(continuation: String) throws {
        let result = try Self.check(Self.launch + "\n" + continuation)
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
    }

    /// A recording begun after the launch: the snapshots say where the scene was, the notifications follow it.
    @Test func aLateStartIsJudgedFromTheSnapshots() throws {
        let result = try Self.check(
            """
            {"lifetrace":1,"scene_manifest":true,"capture":"notifications"}
            {"t":0,"ev":"app.state","phase":"background"}
            {"t":0,"ev":"scene.state","scene":"S1","phase":"background"}
            {"t":10,"ev":"scene.willEnterForeground","scene":"S1"}
            {"t":11,"ev":"app.willEnterForeground"}
            {"t":20,"ev":"scene.didBecomeActive","scene":"S1"}
            {"t":21,"ev":"app.didBecomeActive"}
            """)
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
    }

    static let inBackground =
        launch + """

            {"t":50,"ev":"scene.willResignActive","scene":"S1"}
            {"t":51,"ev":"app.willResignActive"}
            {"t":60,"ev":"scene.didEnterBackground","scene":"S1"}
            {"t":61,"ev":"app.didEnterBackground"}
            """

    /// What UIKit cannot have posted: the finding at the application's notification, event #10 at t = 70 after
    /// the scene went to the background, event #6 at t = 50 while it is active.
    @Test(arguments: [
        (
            inBackground + "\n{\"t\":70,\"ev\":\"app.didBecomeActive\"}", 10,
            "app.didBecomeActive posted while every scene is in the background"
        ),
        (
            inBackground + "\n{\"t\":70,\"ev\":\"app.willResignActive\"}", 10,
            "app.willResignActive posted while every scene is in the background"
        ),
        (
            launch + "\n{\"t\":50,\"ev\":\"app.didEnterBackground\"}", 6,
            "app.didEnterBackground posted while a scene is active"
        ),
        (
            launch + "\n{\"t\":50,\"ev\":\"app.willEnterForeground\"}", 6,
            "app.willEnterForeground posted while a scene is active"
        ),
    ])
    func whatNoSceneExplainsIsLT021(trace: String, index: Int, message: String) throws {
        let result = try Self.check(trace)
        let finding = try #require(result.findings.first)
        #expect(result.findings.count == 1)
        #expect(finding.rule.id == "LT021" && finding.severity == .error)
        #expect(finding.eventIndex == index)
        #expect(finding.t == (index == 10 ? 70 : 50))
        #expect(finding.message == message + ": UIKit's application state is that of its most active scene")
    }

    /// A scene connected for a background event (a location launch) is in the background: the application
    /// becoming active then is not UIKit's.
    @Test func becomingActiveWithTheOneSceneConnectedInTheBackgroundIsLT021() throws {
        let result = try Self.check(
            """
            {"lifetrace":1,"scene_manifest":true,"capture":"notifications"}
            {"t":0,"ev":"process.launch","reason":"location"}
            {"t":10,"ev":"app.didFinishLaunching"}
            {"t":20,"ev":"scene.willConnect","scene":"S1"}
            {"t":30,"ev":"custom.location-update"}
            {"t":40,"ev":"app.didBecomeActive"}
            """)
        #expect(result.findings.map(\.rule.id) == ["LT021"])
    }

    /// Captured as callbacks (or with no `capture`), the same event is an app-delegate method that never runs with
    /// a scene manifest: LT020, not LT021. Without a scene manifest the application's notifications are the app's
    /// own state (the app-ui model); with no scene known there is nothing to judge them against.
    @Test func otherCapturesAndAppsAreJudgedAsBefore() throws {
        let background = Self.inBackground + "\n{\"t\":70,\"ev\":\"app.didBecomeActive\"}"
        let callbacks = try Self.check(
            background.replacingOccurrences(of: "\"capture\":\"notifications\"", with: "\"capture\":\"callbacks\""))
        #expect(Set(callbacks.findings.map(\.rule.id)) == ["LT020"])
        let noScene = try Self.check(
            """
            {"lifetrace":1,"scene_manifest":true,"capture":"notifications"}
            {"t":0,"ev":"process.launch","reason":"user"}
            {"t":10,"ev":"app.didFinishLaunching"}
            {"t":20,"ev":"app.didBecomeActive"}
            {"t":30,"ev":"app.didEnterBackground"}
            """)
        #expect(noScene.findings.isEmpty, "\(noScene.findings.map(\.message))")
    }
}
