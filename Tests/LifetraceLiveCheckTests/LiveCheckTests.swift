import Dispatch
import Foundation
import LifetraceAnalysis
import LifetraceConcurrency
import LifetraceCore
import LifetraceFormat
import LifetraceLiveCheck
import LifetraceRecorder
import LifetraceTestSupport
import Testing

/// Keeps what a live check reports, and can hold the checker's queue in its first report.
final class CollectingReporter: LiveCheckReporter {
    private let state = LockedValue<(findings: [Finding], dropped: Int)>(([], 0))
    /// Signalled when the first finding arrives; the report then waits for ``release``.
    let holdFirst: Bool
    let arrived = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)

    init(holdFirst: Bool = false) {
        self.holdFirst = holdFirst
    }

    var findings: [Finding] { state.withLock { $0.findings } }
    var dropped: Int { state.withLock { $0.dropped } }

    func report(_ finding: Finding) {
        let first = state.withLock { state -> Bool in
            state.findings.append(finding)
            return state.findings.count == 1
        }
        if first, holdFirst {
            arrived.signal()
            release.wait()
        }
    }

    func eventsDropped(total: Int) {
        state.withLock { $0.dropped = total }
    }
}

/// The live check on a recorder whose time moves only when the test moves it: what it reports, when, and that
/// the recording thread never waits for it.
@Suite struct LiveCheckTests {
    let directory = TemporaryDirectory()
    static let scene = "S1"

    /// A UIKit scene-based app's recorder, recording callbacks, on manual time.
    func recorder() throws -> (Recorder, ManualTimeSource) {
        let time = ManualTimeSource()
        var header = TraceHeader(clock: .continuous, startUnixNanoseconds: 0, sceneManifest: true)
        header.lifecycle = .uikit
        header.captureMethod = .callbacks
        let sink = try FileSink(path: directory.file("live.lifetrace"))
        return (Recorder(sink: sink, header: header, time: time, probes: .system), time)
    }

    func activate(_ recorder: Recorder, _ time: ManualTimeSource) {
        recorder.record(.processLaunch, reason: "user")
        recorder.record(.appDidFinishLaunching)
        for kind in [EventKind.sceneWillConnect, .sceneWillEnterForeground, .sceneDidBecomeActive] {
            time.advance(by: 1_000_000)
            recorder.record(kind, scene: Self.scene)
        }
    }

    @Test func anIllegalSequenceIsReportedOnceWithItsRuleAtOnceALegalOneNot() throws {
        let (recorder, time) = try recorder()
        let reporter = CollectingReporter()
        let session = try #require(LiveCheck.start(recorder: recorder, reporter: reporter))
        activate(recorder, time)
        time.advance(by: 1_000_000)
        recorder.record(.sceneWillResignActive, scene: Self.scene)
        recorder.record(.sceneDidEnterBackground, scene: Self.scene)
        session.drain()
        #expect(reporter.findings.isEmpty, "\(reporter.findings.map(\.message))")
        // Back to active from the background, with no willEnterForeground.
        time.advance(by: 1_000_000)
        recorder.record(.sceneDidBecomeActive, scene: Self.scene)
        session.drain()
        let finding = try #require(reporter.findings.first)
        #expect(reporter.findings.count == 1)
        #expect(finding.eventName == "scene.didBecomeActive" && finding.scene == Self.scene)
        #expect(finding.rule.id == "LT001")
        // More life after it, legal: nothing more.
        time.advance(by: 1_000_000)
        recorder.record(.sceneWillResignActive, scene: Self.scene)
        recorder.record(.sceneDidBecomeActive, scene: Self.scene)
        session.stop()
        #expect(reporter.findings.count == 1)
        // The same events checked from the trace find the same.
        try recorder.close()
        let checked = try TraceAnalyzer.analyze(path: directory.file("live.lifetrace"))
        #expect(checked.findings.map(\.rule.id) == [finding.rule.id])
    }

    /// An app's debug build records for hours: 100,000 events through the tap, each one a call of what the live
    /// check gave it. (A function value kept in a generic lock and read through `inout` grew by a thunk at every
    /// read in such a build, and the call through the pile overflowed the stack after about 20,000 events.)
    @Test func aLongRecordingReachesTheCheckEventAfterEvent() throws {
        let (recorder, time) = try recorder()
        let reporter = CollectingReporter()
        let session = try #require(LiveCheck.start(recorder: recorder, reporter: reporter))
        activate(recorder, time)
        for index in 0..<100_000 {
            time.advance(by: 1_000)
            recorder.mark("tick")
            if index % 2_000 == 0 { session.drain() }
        }
        session.stop()
        #expect(reporter.findings.isEmpty, "\(reporter.findings.map(\.message))")
        #expect(session.droppedEventCount == 0)
    }

    @Test func aMeasuredBackgroundHandlerIsLT050WhileItStillRunsAndOnce() throws {
        let (recorder, time) = try recorder()
        let reporter = CollectingReporter()
        let session = try #require(LiveCheck.start(recorder: recorder, reporter: reporter))
        activate(recorder, time)
        recorder.record(.sceneWillResignActive, scene: Self.scene)
        let span = recorder.beginSpan(.sceneDidEnterBackground, scene: Self.scene)
        time.advance(by: 4_900_000_000)
        session.drain()
        #expect(reporter.findings.isEmpty, "within its five seconds")
        time.advance(by: 200_000_000)
        session.drain()
        let finding = try #require(reporter.findings.first)
        #expect(finding.rule.id == "LT050")
        #expect(finding.measured == 5_100_000_000)
        #expect(finding.message.contains("has not returned"))
        time.advance(by: 2_000_000_000)
        span.end()
        session.stop()
        #expect(reporter.findings.map(\.rule.id) == ["LT050"])
    }

    /// The checker held in a report: the recording thread goes on, events past the hand-off's capacity are
    /// dropped and counted, and the checker says so once it reads again.
    @Test func aFullHandOffDropsAndCountsRatherThanBlocks() throws {
        let (recorder, time) = try recorder()
        let reporter = CollectingReporter(holdFirst: true)
        let session = try #require(LiveCheck.start(recorder: recorder, reporter: reporter))
        activate(recorder, time)
        recorder.record(.sceneDidEnterBackground, scene: Self.scene)  // no resign: a finding, which holds the queue
        reporter.arrived.wait()
        let extra = LiveCheck.capacity + 500
        for _ in 0..<extra { recorder.record(.heartbeat) }  // returns although the checker is held
        #expect(session.droppedEventCount >= 500)
        #expect(session.droppedEventCount <= extra)
        reporter.release.signal()
        session.stop()
        #expect(reporter.dropped == session.droppedEventCount)
        try recorder.close()
    }
}
