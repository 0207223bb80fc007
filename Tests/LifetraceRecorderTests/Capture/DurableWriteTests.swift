import Dispatch
import Foundation
import LifetraceConcurrency
import LifetraceCore
import LifetraceFormat
import Testing

@testable import LifetraceRecorder

/// The observers of the notifications after which an app may be suspended never wait for the file: the write is
/// queued under a background-time assertion held until it lands, and the observer returns at once. Only
/// termination waits, and no longer than its bound. The writer here stalls as a disk that does not answer would
/// (an observer that waited for it would wait until the time limit fails the test).
///
/// The time limit turns a hang into a failure. It is generous: in the integration tier, tests that block their
/// thread for minutes (Spark, DuckDB) can keep these from running long after they started.
@Suite(.timeLimit(.minutes(10))) struct DurableWriteTests {
    /// Generous: the point is that the observer does not wait for a write stalled for seconds, not its speed.
    static let quickReturn: Duration = .milliseconds(50)

    /// A recorder whose writer stalls on its first event until ``StalledWriter/release()``, its capture observing
    /// `center`, and the holds on suspension it asked for.
    struct Fixture {
        let writer = StalledWriter()
        let center = NotificationCenter()
        let holds = LockedValue<[(reason: String, write: QueuedWrite)]>([])
        let recorder: Recorder
        let capture: LifecycleCapture

        init() {
            let holds = self.holds
            let probes = SystemProbes(
                applicationSnapshot: { _ in nil }, thermalState: { nil },
                holdSuspension: { reason, write in holds.withLock { $0.append((reason, write)) } })
            // No timer write: only the writes the observers queue (and the stalling one) reach the writer.
            recorder = Recorder(
                writer: writer, time: ManualTimeSource(),
                configuration: .init(flushInterval: .seconds(3600)), probes: probes)
            capture = LifecycleCapture(recorder: recorder, center: center)
        }

        /// Makes the writer queue busy with a write that stalls, and waits until it is stuck.
        func stallTheWriter() throws {
            recorder.mark("before-the-stall")
            recorder.flushSoon()
            try #require(writer.waitUntilStuck(atMost: .seconds(10)))
        }

        /// How long posting `notification` took to return.
        func timePost(_ notification: LifecycleNotification, object: String? = nil) -> Duration {
            let clock = ContinuousClock()
            let start = clock.now
            center.post(name: Notification.Name(notification.rawValue), object: object)
            return clock.now - start
        }
    }

    @Test(arguments: [
        LifecycleNotification.applicationWillResignActive, .applicationDidEnterBackground,
        .sceneWillDeactivate, .sceneDidEnterBackground, .applicationProtectedDataWillBecomeUnavailable,
    ])
    func aStalledWriterDoesNotBlockTheObserverAndLosesNothing(notification: LifecycleNotification) throws {
        let fixture = Fixture()
        defer { fixture.capture.stop() }
        try fixture.stallTheWriter()
        fixture.recorder.mark("saved")
        let object = notification.isSceneNotification ? "S1" : nil
        let elapsed = fixture.timePost(notification, object: object)
        #expect(elapsed < Self.quickReturn, "the observer waited \(elapsed) for a stalled write")

        // The suspension is held off, for a write that has not landed: the writer is still stuck.
        let holds = fixture.holds.withLock { $0 }
        try #require(holds.count == 1)
        #expect(holds[0].reason.contains("lifetrace"))
        #expect(!holds[0].write.hasLanded)
        #expect(fixture.writer.events.isEmpty)

        // Once the disk answers, the write lands, the hold can end, and every event is there, in order.
        fixture.writer.release()
        #expect(holds[0].write.wait(atMost: .seconds(10)))
        fixture.recorder.waitForWriter()
        let written = fixture.writer.events
        #expect(written.map(\.kind) == [.custom, .custom, notification.eventKind])
        #expect(written.prefix(2).map(\.label) == ["before-the-stall", "saved"])
        #expect(written.last?.scene == object)
    }

    /// Several transitions while the disk stalls: each observer returns at once, each holds the suspension off
    /// until its own write lands, and the trace keeps them all in order.
    @Test func transitionsQueuedBehindAStallAllLand() throws {
        let fixture = Fixture()
        defer { fixture.capture.stop() }
        try fixture.stallTheWriter()
        let posts: [(LifecycleNotification, String?)] = [
            (.sceneWillDeactivate, "S1"), (.applicationWillResignActive, nil), (.sceneDidEnterBackground, "S1"),
            (.applicationDidEnterBackground, nil),
        ]
        for (notification, object) in posts {
            let elapsed = fixture.timePost(notification, object: object)
            #expect(elapsed < Self.quickReturn, "\(notification) waited \(elapsed) for a stalled write")
        }
        let holds = fixture.holds.withLock { $0 }
        #expect(holds.count == posts.count)
        #expect(holds.allSatisfy { !$0.write.hasLanded })
        fixture.writer.release()
        #expect(holds.allSatisfy { $0.write.wait(atMost: .seconds(10)) })
        #expect(fixture.writer.events.map(\.kind) == [.custom] + posts.map(\.0.eventKind))
    }

    /// Termination is the one observer that waits, since the process may end as it returns: for the write when
    /// the disk answers, and no longer than its bound when it does not; the write still lands afterwards.
    @Test func terminationWaitsForTheWriteAtMostItsBound() throws {
        let answering = Fixture()
        answering.writer.release()
        answering.recorder.mark("saved")
        _ = answering.timePost(.applicationWillTerminate)
        // Written when the observer returned: nothing more had to run.
        #expect(answering.writer.events.map(\.kind) == [.custom, .appWillTerminate])
        answering.capture.stop()

        let fixture = Fixture()
        defer { fixture.capture.stop() }
        try fixture.stallTheWriter()
        let elapsed = fixture.timePost(.applicationWillTerminate)
        #expect(elapsed >= .milliseconds(900), "returned after \(elapsed), before its bound of one second")
        #expect(elapsed < .seconds(5), "waited \(elapsed), past its bound of one second")
        #expect(fixture.writer.events.isEmpty)
        fixture.writer.release()
        fixture.recorder.waitForWriter()
        #expect(fixture.writer.events.map(\.kind) == [.custom, .appWillTerminate])
    }
}

/// An event writer whose appends stall until ``release()``: a disk that does not answer, then does.
final class StalledWriter: EventWriter, Sendable {
    private let stall = DispatchGroup()
    private let stuck = DispatchSemaphore(value: 0)
    private let written = LockedValue<[LifecycleEvent]>([])

    init() {
        stall.enter()
    }

    /// Lets every append, stalled or to come, go through.
    func release() {
        stall.leave()
    }

    /// Waits until an append is stalled; whether one was within `bound`.
    func waitUntilStuck(atMost bound: DispatchTimeInterval) -> Bool {
        stuck.wait(timeout: .now() + bound) == .success
    }

    /// The events appended so far.
    var events: [LifecycleEvent] { written.withLock { $0 } }

    func append(_ event: LifecycleEvent) throws(TraceError) {
        if stall.wait(timeout: .now()) != .success {
            stuck.signal()
            stall.wait()
        }
        written.withLock { $0.append(event) }
    }

    func flush() throws(TraceError) {}

    func close() throws(TraceError) {}

    var writtenEventCount: Int { events.count }
}
