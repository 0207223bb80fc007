import LifetraceAnalysis
import LifetraceCore
import Testing

@testable import LifetraceImport

/// A macOS app's `log stream`: no runningboardd line about it, no UIKit; LaunchServices tells its process each
/// change of the front-most app and AppKit logs `isActive`. The facts were read off the fixture's lines by hand
/// (Fixtures/README.md).
@Suite struct MacCaptureTests {
    static let ms: Int64 = 1_000_000

    /// Augment comes to the front twice and leaves it twice; each `LostFrontmost` names the app that took the
    /// front (com.todesktop.230313mzl4w4u92), not Augment.
    @Test func frontmostChangesOfAMacApp() throws {
        let (importer, events) = try ImportFixtures.importFixture(
            "augment-frontmost.compact.log", AppSelection(process: "Augment"), TimeAssumptions(year: 2025, zone: "UTC"))
        // Origin line 6, 21:10:01.215.
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 6, reason: "unknown"),
                Derived("app.didBecomeActive", t: 1 * Self.ms, line: 7),  // isActive=1: active as the capture begins
                Derived("app.willResignActive", t: 2_950 * Self.ms, line: 8),  // 21:10:04.165, another app in front
                Derived("app.didBecomeActive", t: 8_772 * Self.ms, line: 12),  // 21:10:09.987, Augment in front
                Derived("app.willResignActive", t: 11_785 * Self.ms, line: 15),  // 21:10:13.000
                Derived("app.didBecomeActive", t: 14_323 * Self.ms, line: 17),  // 21:10:15.538
            ])
        #expect(events[1].attribute("state_at_capture_start") == .bool(true))
        #expect(events[3].attribute("state_at_capture_start") == nil)
        #expect(events[0].pid == 4909)
        #expect(importer.entries == 14)
        #expect(importer.skipped.lines == 5)  // two comments, the command, `Filtering ...`, the column header
        #expect(importer.notUnderstood.count == 0)
        let header = importer.header(app: nil)
        #expect(header.lifecycle == .appkit)
        #expect(header.app == "com.augment.Augment")  // learned from BecameFrontmost on line 12
        #expect(header[.appPrints] == nil)
        // Checked with the AppKit model: inactive and active only, every transition legal.
        let result = MidSessionCaptureTests.analyze(importer, events)
        #expect(result.findings.isEmpty)
        #expect(result.processes.map(\.end) == [.traceEnded])
    }

    /// The same with the bundle identifier given: `LostFrontmost` naming another app is Augment leaving the front.
    @Test func theBundleGivenAgrees() throws {
        let (_, events) = try ImportFixtures.importFixture(
            "augment-frontmost.compact.log", AppSelection(process: "Augment", bundleID: "com.augment.Augment"),
            TimeAssumptions(year: 2025, zone: "UTC"))
        #expect(
            events.map(\.eventName) == [
                "process.launch", "app.didBecomeActive", "app.willResignActive",
                "app.didBecomeActive", "app.willResignActive", "app.didBecomeActive",
            ])
    }
}
