import Testing

@testable import LifetraceReport

/// The names tracks are given, spelled as bytes by the encoders.
@Suite struct ExportTrackNameTests {
    private func name(_ group: ExportLayout.Group, lane: Int = 0) -> String {
        ExportTrackName(group: group, lane: lane).text
    }

    @Test func eachGroupIsNamedAndLanesPastTheFirstAreNumberedFromTwo() {
        #expect(name(.events) == "events")
        #expect(name(.state) == "process state")
        #expect(name(.appDelegate) == "app delegate")
        #expect(name(.tasks, lane: 1) == "background tasks (2)")
        #expect(name(.scene("main")) == "scene main")
        #expect(name(.scene("main"), lane: 11) == "scene main (12)")
        #expect(name(.sceneState("main")) == "scene main state")
        #expect(name(.service("api"), lane: 2) == "service api (3)")
        #expect(name(.serviceState("api")) == "service api state")
        #expect(name(.inputWarnings) == "input warnings")
    }

    @Test func theAppsOwnSceneIsNamedAsTheApp() {
        #expect(name(.scene("")) == "app")
        #expect(name(.sceneState("")) == "app state")
    }

    @Test func aLongSceneIsCutAt256BytesAndACharacterCutInTwoIsReplaced() {
        // 255 bytes of "a", then "é" (two bytes: C3 A9) across the 256th byte, then more.
        let scene = String(repeating: "a", count: 255) + "é" + "tail"
        #expect(name(.scene(scene)) == "scene " + String(repeating: "a", count: 255) + "\u{FFFD}…")
        // Exactly 256 bytes: kept whole.
        let whole = String(repeating: "b", count: 256)
        #expect(name(.sceneState(whole), lane: 1) == "scene " + whole + " state (2)")
    }
}
