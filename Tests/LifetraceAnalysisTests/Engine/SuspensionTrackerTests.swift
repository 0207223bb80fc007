import LifetraceCore
import LifetraceFormat
import Testing

@testable import LifetraceAnalysis

/// Suspensions from each kind of evidence: inferred from silence in the background, logged by the system in a
/// derived trace, or the simulator's ground truth; and the estimate of time not running after silent exits.
@Suite struct SuspensionTrackerTests {
    static let second: Int64 = 1_000_000_000

    /// Reads `event` as the analyzer does: the tracker sees it as a block's record.
    static func read(_ event: LifecycleEvent, _ tracker: inout SuspensionTracker) -> SuspensionTracker.Transition {
        var block = EventBlock()
        block.append(event)
        return tracker.read(block.records[0])
    }

    static func header(_ members: [(key: TraceHeader.Key, value: JSONValue)]) -> TraceHeader {
        var header = TraceHeader()
        for (key, value) in members { header[key] = value }
        return header
    }

    @Test func evidenceComesFromTheHeader() {
        #expect(SuspensionTracker(header: nil).evidence == .inference)
        #expect(SuspensionTracker(header: Self.header([(.derived, true)])).evidence == .systemLog)
        #expect(SuspensionTracker(header: Self.header([(.groundTruth, true)])).evidence == .groundTruth)
        // The simulator's word beats the log's.
        let both = Self.header([(.derived, true), (.groundTruth, true)])
        #expect(SuspensionTracker(header: both).evidence == .groundTruth)
    }

    /// Idle from 100 s: the next event 10 s later is within the threshold (strictly more is needed), 10 s and
    /// 1 ns later is past it.
    @Test(arguments: [(Int64(10) * second, false), (Int64(10) * second + 1, true)])
    func silenceLongerThanTheThresholdIsASuspension(gap: Int64, suspended: Bool) {
        var tracker = SuspensionTracker(header: nil)
        tracker.processStarted(at: 0, isLaunch: true)
        tracker.noteSignOfLife(until: 100 * Self.second, idleInBackground: true)
        let transition = Self.read(LifecycleEvent(t: 100 * Self.second + gap, kind: .heartbeat), &tracker)
        let expected = SuspensionInterval(
            start: 100 * Self.second, end: 100 * Self.second + gap, basis: "idle in the background")
        #expect(transition == (suspended ? .inferred(expected) : .none))
        #expect(tracker.count == (suspended ? 1 : 0))
        #expect(!tracker.isIdle)
    }

    @Test func aProcessInTheForegroundIsNeverIdle() {
        var tracker = SuspensionTracker(header: nil)
        tracker.noteSignOfLife(until: 5, idleInBackground: false)
        #expect(Self.read(LifecycleEvent(t: 3600 * Self.second, kind: .heartbeat), &tracker) == .none)
    }

    /// Heartbeats every 2 s: three seconds of silence is not enough, four and a nanosecond is.
    @Test func heartbeatsSetTheThresholdToTwoIntervals() {
        var tracker = SuspensionTracker(header: Self.header([(.heartbeat, .int(2 * Self.second))]))
        tracker.noteSignOfLife(until: 0, idleInBackground: true)
        #expect(Self.read(LifecycleEvent(t: 3 * Self.second, kind: .heartbeat), &tracker) == .none)
        tracker.noteSignOfLife(until: 3 * Self.second, idleInBackground: true)
        #expect(
            Self.read(LifecycleEvent(t: 7 * Self.second + 1, kind: .heartbeat), &tracker)
                == .inferred(
                    SuspensionInterval(start: 3 * Self.second, end: 7 * Self.second + 1, basis: "heartbeats stopped")))
    }

    @Test func theSystemsWordReplacesInferenceWhileItLasts() {
        var tracker = SuspensionTracker(header: Self.header([(.derived, true)]))
        tracker.noteSignOfLife(until: 0, idleInBackground: true)
        #expect(
            Self.read(LifecycleEvent(t: 1 * Self.second, kind: .processSuspend), &tracker)
                == .suspended(at: Self.second))
        // A second suspend line while suspended changes nothing; silence is not inferred while suspended.
        #expect(Self.read(LifecycleEvent(t: 2 * Self.second, kind: .processSuspend), &tracker) == .none)
        #expect(Self.read(LifecycleEvent(t: 60 * Self.second, kind: .heartbeat), &tracker) == .none)
        #expect(
            Self.read(LifecycleEvent(t: 90 * Self.second, kind: .processResume), &tracker)
                == .resumed(
                    SuspensionInterval(start: Self.second, end: 90 * Self.second, basis: SuspensionTracker.systemBasis))
        )
        #expect(tracker.fromEvidence)
        // Where the capture is silent, inference again.
        tracker.noteSignOfLife(until: 100 * Self.second, idleInBackground: true)
        #expect(
            Self.read(LifecycleEvent(t: 200 * Self.second, kind: .heartbeat), &tracker)
                == .inferred(
                    SuspensionInterval(
                        start: 100 * Self.second, end: 200 * Self.second, basis: "idle in the background")))
        #expect(tracker.count == 2 && tracker.systemCount == 1 && !tracker.fromEvidence)
    }

    @Test func groundTruthIsTakenAsItIs() {
        var tracker = SuspensionTracker(header: Self.header([(.groundTruth, true)]))
        #expect(Self.read(LifecycleEvent(t: 5, kind: .processSuspend), &tracker) == .suspended(at: 5))
        #expect(
            Self.read(LifecycleEvent(t: 7, kind: .processResume), &tracker)
                == .resumed(SuspensionInterval(start: 5, end: 7, basis: "ground truth")))
        #expect(Self.read(LifecycleEvent(t: 3600 * Self.second, kind: .heartbeat), &tracker) == .none)
        #expect(tracker.fromEvidence)
    }

    /// A process idle in the background from 10 s, then a new launch at 70 s: suspended until the launch (an
    /// upper bound), counted as a silent exit.
    @Test func aSilentExitIsAnUpperBound() {
        var tracker = SuspensionTracker(header: nil)
        tracker.noteSignOfLife(until: 10 * Self.second, idleInBackground: true)
        #expect(tracker.suspendedAtEnd(nextLaunch: true))
        #expect(!tracker.suspendedAtEnd(nextLaunch: false))
        let end = tracker.processEnded(at: 70 * Self.second, silently: true)
        #expect(
            end
                == .inferred(
                    SuspensionInterval(
                        start: 10 * Self.second, end: 70 * Self.second,
                        basis: "idle in the background, then a new launch")))
        #expect(tracker.silentExits.exits == 1 && tracker.silentExits.intervals == 60 * Self.second)
    }

    /// After `applicationWillTerminate` at 100 s, the next launch at 103 s measures 3 s not running; a process
    /// that merely continues (the trace starting inside it) measures nothing.
    @Test func anAnnouncedEndMeasuresTheTimeNotRunning() {
        var tracker = SuspensionTracker(header: nil)
        tracker.processAnnouncedEnd(at: 100 * Self.second)
        tracker.processStarted(at: 103 * Self.second, isLaunch: true)
        #expect(tracker.silentExits.relaunches == 1 && tracker.silentExits.relaunchGaps == 3 * Self.second)
        tracker.processAnnouncedEnd(at: 200 * Self.second)
        tracker.processStarted(at: 205 * Self.second, isLaunch: false)
        #expect(tracker.silentExits.relaunches == 1)
    }

    @Test func theIntervalsKeptAreBoundedAndTheCountIsExact() {
        var tracker = SuspensionTracker(header: nil)
        let total = TraceAnalyzer.keptDetails + 5
        for i in 0..<total {
            let start = Int64(i) * 100 * Self.second
            tracker.noteSignOfLife(until: start, idleInBackground: true)
            _ = Self.read(LifecycleEvent(t: start + 50 * Self.second, kind: .heartbeat), &tracker)
        }
        #expect(tracker.count == total)
        #expect(tracker.intervals.count == TraceAnalyzer.keptDetails)
    }
}
