import Foundation
import LifetraceAnalysis
import LifetraceCore
import LifetraceTestSupport
import Testing

/// Where a connected scene's time goes. Apple, "Managing your app's life cycle": "When the user or system requests
/// a new scene for your app, UIKit creates it and puts it in the unattached state. User-requested scenes move
/// quickly to the foreground, where they appear onscreen. A system-requested scene typically moves to the
/// background so that it can process an event. For example, the system might launch the scene in the background
/// to process a location event." And "applicationState": "A scene-based app launches in the background state".
///
/// A connection followed at once by the scene's `sceneWillEnterForeground` is a user-requested scene: foreground-
/// inactive from its connection. One followed by anything else — the event it was launched for, heartbeats,
/// `sceneDidEnterBackground`, or a silence long enough to be a suspension — is in the background until it comes
/// forward, however long that takes. Times are hand-computed, in nanoseconds.
@Suite struct ConnectedSceneTests {
    static let s: Int64 = 1_000_000_000

    static func scene(_ result: AnalysisResult, _ name: String = "S1") throws -> StateTimes {
        try #require(result.scenes.first { $0.scene == name }).times
    }

    /// A user-requested scene: connected at 20, forward at 30, active at 40; the connection is inactive time.
    @Test func aConnectionFollowedAtOnceByTheForegroundIsInactive() throws {
        let result = try SeedSequenceTests.check(
            SeedSequenceTests.launch + "\n{\"t\":1000000040,\"ev\":\"scene.willResignActive\",\"scene\":\"S1\"}")
        let times = try Self.scene(result)
        #expect(times.inactive == 20 && times.background == 0 && times.active == 1_000_000_000)
        // The process: before the connection, its launch (counted as background); then the scene's time.
        #expect(result.totals.background == 20 && result.totals.inactive == 20)
        #expect(result.findings.isEmpty)
    }

    /// Events the app writes inside its willConnect handler (20 to 120) are the connection's own.
    @Test func eventsWithinTheConnectionsHandlerAreTheConnections() throws {
        let result = try SeedSequenceTests.check(
            """
            {"lifetrace":1,"scene_manifest":true}
            {"t":0,"ev":"process.launch","reason":"user"}
            {"t":10,"ev":"app.didFinishLaunching","dur":5}
            {"t":20,"ev":"scene.willConnect","scene":"S1","dur":100}
            {"t":50,"ev":"custom.setup"}
            {"t":130,"ev":"scene.willEnterForeground","scene":"S1"}
            {"t":140,"ev":"scene.didBecomeActive","scene":"S1"}
            """)
        #expect(try Self.scene(result).inactive == 120)
        #expect(result.totals.inactive == 120)
    }

    static let locationLaunch = """
        {"lifetrace":1,"scene_manifest":true}
        {"t":0,"ev":"process.launch","reason":"location"}
        {"t":10,"ev":"app.didFinishLaunching","dur":5}
        {"t":1000000000,"ev":"scene.willConnect","scene":"S1","dur":1000}
        """

    static let comesForward = """
        {"t":601000000000,"ev":"scene.willEnterForeground","scene":"S1"}
        {"t":601100000000,"ev":"scene.didBecomeActive","scene":"S1"}
        {"t":602100000000,"ev":"scene.willResignActive","scene":"S1"}
        """

    /// A location launch: the scene connects at 1 s, the app handles the update at 1.1 s, and the user brings it
    /// forward ten minutes later (601 s). The scene was in the background for 600 s, not inactive; the process,
    /// idle in the background after the update, was suspended from 1.1 s.
    @Test func aSceneConnectedForABackgroundEventIsInTheBackgroundUntilItComesForward() throws {
        let result = try SeedSequenceTests.check(
            Self.locationLaunch + "\n{\"t\":1100000000,\"ev\":\"custom.location-update\"}\n" + Self.comesForward)
        let times = try Self.scene(result)
        #expect(times.background == 600 * Self.s)
        #expect(times.inactive == Self.s / 10)
        #expect(times.active == Self.s)
        #expect(result.totals.background == Self.s + Self.s / 10)  // launch to the update
        #expect(result.totals.suspended == 600 * Self.s - Self.s / 10)  // 1.1 s to 601 s
        #expect(result.totals.inactive == Self.s / 10)
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
    }

    /// Nothing at all between the connection and the foreground ten minutes later: the silence is a suspension
    /// (no user-requested scene waits ten minutes), so the connection was in the background.
    @Test func aSilenceAfterTheConnectionIsInTheBackground() throws {
        let result = try SeedSequenceTests.check(Self.locationLaunch + "\n" + Self.comesForward)
        #expect(try Self.scene(result).background == 600 * Self.s)
        #expect(result.totals.inactive == Self.s / 10)
        #expect(result.totals.background == Self.s + 1000)  // to the end of the willConnect handler
        #expect(result.totals.suspended == 600 * Self.s - 1000)
    }

    /// Heartbeats every second keep the process running: ten minutes in the background, no suspension.
    @Test func heartbeatsAfterTheConnectionAreBackgroundTime() throws {
        let heartbeats = (2...600).map { "{\"t\":\(Int64($0) * Self.s),\"ev\":\"heartbeat\"}" }.joined(separator: "\n")
        let text =
            Self.locationLaunch.replacingOccurrences(
                of: "\"scene_manifest\":true", with: "\"scene_manifest\":true,\"heartbeat_ns\":1000000000")
            + "\n" + heartbeats + "\n" + Self.comesForward
        let result = try SeedSequenceTests.check(text)
        #expect(try Self.scene(result).background == 600 * Self.s)
        #expect(result.totals.background == 601 * Self.s)
        #expect(result.totals.inactive == Self.s / 10)
        #expect(result.totals.suspended == 0)
    }

    /// A system-requested scene that UIKit moves to the background: legal from its connection, background time
    /// throughout.
    @Test func aConnectionThatGoesToTheBackgroundIsBackgroundTime() throws {
        let result = try SeedSequenceTests.check(
            Self.locationLaunch + """

                {"t":1500000000,"ev":"scene.didEnterBackground","scene":"S1","dur":1000}
                {"t":1600000000,"ev":"custom.location-update"}
                {"t":1700000000,"ev":"system.snapshot"}
                """)
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
        let times = try Self.scene(result)
        #expect(times.background == 700_000_000 && times.inactive == 0)
        #expect(result.totals.inactive == 0 && result.totals.background == 1_700_000_000)
    }

    /// applicationWillTerminate while the one scene was connected for a background event: the app runs in the
    /// background, where the system terminates apps (Apple, "applicationWillTerminate(_:)"), not in the foreground.
    @Test func terminatingWithASceneConnectedInTheBackgroundIsNotFromTheForeground() throws {
        let result = try SeedSequenceTests.check(
            Self.locationLaunch + """

                {"t":1100000000,"ev":"custom.location-update"}
                {"t":2000000000,"ev":"app.willTerminate","dur":1000}
                """)
        #expect(!result.findings.contains { $0.rule.id == "LT012" }, "\(result.findings.map(\.message))")
    }

    /// The same termination with the scene brought forward at once is from the foreground (LT012), which the
    /// message names by the state's name: the scene entered the foreground and never became active, so inactive.
    @Test func terminatingWithASceneConnectedForTheForegroundIsLT012() throws {
        let result = try SeedSequenceTests.check(
            Self.locationLaunch + """

                {"t":1000002000,"ev":"scene.willEnterForeground","scene":"S1"}
                {"t":2000000000,"ev":"app.willTerminate","dur":1000}
                """)
        #expect(result.findings.map(\.rule.id) == ["LT012"])
        #expect(
            result.findings.map(\.message) == ["applicationWillTerminate while a scene is in the foreground (inactive)"]
        )
    }

    /// A second window: connected at once to the foreground beside the active first one, it is inactive until it
    /// becomes active; one connected for a background event is in the background, and the app stays active.
    @Test(arguments: [true, false])
    func aSecondScene(comesForward: Bool) throws {
        let second =
            comesForward
            ? "{\"t\":2000000000,\"ev\":\"scene.willConnect\",\"scene\":\"S2\"}\n{\"t\":2000000100,\"ev\":\"scene.willEnterForeground\",\"scene\":\"S2\"}\n{\"t\":2000000200,\"ev\":\"scene.didBecomeActive\",\"scene\":\"S2\"}"
            : "{\"t\":2000000000,\"ev\":\"scene.willConnect\",\"scene\":\"S2\"}\n{\"t\":2000000100,\"ev\":\"custom.refresh\"}"
        let result = try SeedSequenceTests.check(
            SeedSequenceTests.launch + "\n" + second + "\n{\"t\":3000000000,\"ev\":\"heartbeat\"}")
        let times = try Self.scene(result, "S2")
        if comesForward {
            #expect(times.inactive == 200 && times.active == Self.s - 200 && times.background == 0)
        } else {
            #expect(times.background == Self.s && times.inactive == 0)
        }
        #expect(result.totals.active == 3 * Self.s - 40)
        #expect(result.findings.isEmpty)
    }
}
