import LifetraceAnalysis
import LifetraceCore
import Testing

@testable import LifetraceImport

/// Several runs of one app in one capture: each pid a process of its own, in time order whatever order the runs
/// were pasted in; process names with spaces and punctuation. The fixture's facts were read off its lines by
/// hand (Fixtures/README.md).
@Suite struct SeveralRunsTests {
    static let ms: Int64 = 1_000_000

    /// Five runs of HBNavigationBarDemo pasted into a note, the second (pid 14684, the only one that prints its
    /// delegate's callbacks) last: each run is a process at its own time.
    @Test func runsPastedOutOfTimeOrder() throws {
        let (importer, events) = try ImportFixtures.importFixture(
            "several-runs.xcode.md", AppSelection(process: "HBNavigationBarDemo"),
            TimeAssumptions(year: 2015, zone: "+0800"))
        // Origin line 4, 17:32:30.767 (pid 14468); each time is its line's minus it.
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 4, reason: "unknown"),
                Derived("process.launch", t: 874_595 * Self.ms, line: 64, reason: "unknown"),  // 17:47:05.362
                Derived("app.didFinishLaunching", t: 874_595 * Self.ms, line: 64),
                Derived("app.didBecomeActive", t: 952_854 * Self.ms, line: 67),  // 17:48:23.621
                Derived("app.willResignActive", t: 1_038_141 * Self.ms, line: 71),  // 17:49:48.908
                Derived("app.didEnterBackground", t: 1_038_667 * Self.ms, line: 72),  // 17:49:49.434
                Derived("app.willEnterForeground", t: 1_071_143 * Self.ms, line: 74),  // 17:50:21.910
                Derived("app.didBecomeActive", t: 1_071_661 * Self.ms, line: 75),  // 17:50:22.428
                Derived("process.launch", t: 1_274_231 * Self.ms, line: 43, reason: "unknown"),  // 17:53:44.998
                Derived("process.launch", t: 1_742_446 * Self.ms, line: 47, reason: "unknown"),  // 18:01:33.213
                Derived("process.launch", t: 1_900_938 * Self.ms, line: 55, reason: "unknown"),  // 18:04:11.705
            ])
        #expect(events.filter { $0.kind == .processLaunch }.map(\.pid) == [14468, 14684, 14825, 14961, 15028])
        #expect(importer.entries == 48)
        // Two comments and seven headings or notes (`###...`, `delloc最后调用`, `#UITabBarItem`).
        #expect(importer.skipped.lines == 9)
        #expect(importer.lateLines.count == 0)
        #expect(importer.header(app: nil).startUnixNanoseconds == 1_446_111_150_767_000_000)
        let result = MidSessionCaptureTests.analyze(importer, events)
        #expect(result.processes.count == 5)
        #expect(result.findings.isEmpty)
        #expect(result.processes.last?.end == .traceEnded)
    }

    /// A live stream is derived as it comes: an entry earlier than the one before it waits for nothing (its
    /// event is placed at the latest time, as time never goes back).
    @Test func aLiveStreamIsNotHeldForOrder() {
        let text = """
            2015-10-29 18:04:11.705 App[15028:2249677] applicationDidBecomeActive
            2015-10-29 17:47:05.362 App[14684:2146911] applicationDidBecomeActive
            """
        var importer = LogImporter(
            selection: AppSelection(process: "App"), assumptions: TimeAssumptions(year: 2015),
            live: true)
        var afterFirstLine: [LifecycleEvent] = []
        for (index, line) in text.split(separator: "\n").enumerated() {
            importer.feed(line, number: index + 1) { afterFirstLine.append($0) }
        }
        // The first entry is derived once the second line ends it, without waiting for the capture's end.
        #expect(afterFirstLine.map(\.eventName) == ["process.launch", "app.didBecomeActive"])
        var rest: [LifecycleEvent] = []
        importer.finish { rest.append($0) }
        #expect(
            rest.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 2, reason: "unknown"),
                Derived("app.didBecomeActive", t: 0, line: 2),
            ])
    }

    /// A device's syslog names the app's process as its executable: spaces and punctuation included.
    @Test(arguments: [true, false])
    func aProcessNameWithSpacesAndPunctuation(deviceColumn: Bool) {
        let device = deviceColumn ? "iPhone " : ""
        let text = """
            Mar  3 10:40:00 \(device)Did You Feel That?[312] <Notice>: applicationDidBecomeActive(_:)
            Mar  3 10:40:01 \(device)SpringBoard[50] <Notice>: [FBSceneManager] nothing of the app
            Mar  3 10:40:05 \(device)Did You Feel That?[312] <Notice>: applicationWillResignActive(_:)
            """
        let (importer, events) = ImportFixtures.importText(
            text, AppSelection(process: "Did You Feel That?"), TimeAssumptions(year: 2016, zone: "UTC"))
        #expect(
            events.map(Derived.init) == [
                Derived("process.launch", t: 0, line: 1, reason: "unknown"),
                Derived("app.didBecomeActive", t: 0, line: 1),
                Derived("app.willResignActive", t: 5_000 * Self.ms, line: 3),
            ])
        #expect(events.first?.pid == 312)
        #expect(importer.processesSeen.map(\.process).sorted() == ["Did You Feel That?"])
    }
}
