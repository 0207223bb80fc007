import Dispatch
import Foundation
import LifetraceConcurrency
import LifetraceCore
import Testing

@testable import LifetraceRecorder

/// Ending a task never waits for the disk on the caller's thread: the end is written first and the system told once
/// it has landed, from a thread of the recorder's, or after a bound if the disk does not answer. Only the expiration
/// handler, which must return with the task ended, waits, and no longer than its bound. The writer here stalls as a
/// disk that does not answer would.
///
/// The time limit turns a hang into a failure. It is generous: in the integration tier, tests that block their
/// thread for minutes (Spark, DuckDB) can keep these from running long after they started.
@Suite(.timeLimit(.minutes(10))) struct TaskEndWriteTests {
    typealias FakeApplication = BackgroundWorkTests.FakeApplication

    /// Begins a background task on `fixture`'s recorder, whose system is `app`.
    static func begin(_ fixture: DurableWriteTests.Fixture, _ app: FakeApplication) -> RecordedBackgroundTask {
        fixture.recorder.beginBackgroundTask(name: "upload", begin: app.begin, end: app.end)
    }

    /// How long `body` took.
    static func time(_ body: () -> Void) -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        body()
        return clock.now - start
    }

    /// The work's completion ends its task while the disk stalls: `end()` returns at once, the system is not told
    /// until the end has landed, and then it is, with `task.end` in the trace.
    @Test func endReturnsAtOnceAndTellsTheSystemOnceTheEndLands() throws {
        let fixture = DurableWriteTests.Fixture()
        defer { fixture.capture.stop() }
        let written = LockedValue<[EventKind]>([])
        let app = FakeApplication(onEnd: { _, _ in written.withLock { $0 = fixture.writer.events.map(\.kind) } })
        try fixture.stallTheWriter()
        let task = Self.begin(fixture, app)
        let elapsed = Self.time { task.end() }
        #expect(elapsed < DurableWriteTests.quickReturn, "end() waited \(elapsed) for a stalled write")
        // Suspension is held off for the write; the system is not told before it lands (well within the bound).
        #expect(fixture.holds.withLock { $0.count } == 1)
        #expect(!app.waitForAnEnd(atMost: .milliseconds(300)))
        fixture.writer.release()
        #expect(app.waitForAnEnd(atMost: .seconds(10)))
        #expect(app.ended == [task.identifier])
        #expect(written.withLock { $0 } == [.custom, .taskBegin, .taskEnd])
    }

    /// A disk that never answers does not keep the task open until its time runs out: the system is told after the
    /// bound, and the end still lands when the disk answers.
    @Test func aDiskThatDoesNotAnswerDelaysTheSystemOnlyByTheBound() throws {
        let fixture = DurableWriteTests.Fixture()
        defer { fixture.capture.stop() }
        let app = FakeApplication()
        try fixture.stallTheWriter()
        let task = Self.begin(fixture, app)
        let clock = ContinuousClock()
        let start = clock.now
        task.end()
        #expect(app.waitForAnEnd(atMost: .seconds(20)))
        let waited = clock.now - start
        #expect(waited >= .milliseconds(1_900), "told after \(waited), before the bound of two seconds")
        #expect(fixture.writer.events.isEmpty)
        fixture.writer.release()
        fixture.recorder.waitForWriter()
        #expect(fixture.writer.events.map(\.kind) == [.custom, .taskBegin, .taskEnd])
        #expect(app.ended == [task.identifier])
    }

    /// The expiration handler, on the main thread, must return with the task ended: with the disk stalled it waits
    /// for the write half a second at most, then ends the task itself; the expiry and the end land later.
    @Test func theExpirationHandlerWaitsAtMostItsBoundAndReturnsWithTheTaskEnded() throws {
        let fixture = DurableWriteTests.Fixture()
        defer { fixture.capture.stop() }
        let app = FakeApplication()
        try fixture.stallTheWriter()
        let task = Self.begin(fixture, app)
        let handler = try #require(app.handler(task.identifier))
        let elapsed = Self.time { handler() }
        #expect(elapsed >= .milliseconds(450), "returned after \(elapsed), before its bound of half a second")
        #expect(elapsed < .seconds(2), "waited \(elapsed), past its bound of half a second")
        #expect(app.ended == [task.identifier])
        #expect(app.waitForAnEnd(atMost: .seconds(1)))  // the end the handler made
        fixture.writer.release()
        fixture.recorder.waitForWriter()
        #expect(fixture.writer.events.map(\.kind) == [.custom, .taskBegin, .taskExpire, .taskEnd])
        // The work's own completion, afterwards, ends nothing more.
        task.end()
        #expect(!app.waitForAnEnd(atMost: .milliseconds(100)), "the task was ended twice")
        #expect(app.ended == [task.identifier])
    }

    /// A `BGTask` completed, or expiring, while the disk stalls: neither call waits; `setTaskCompleted(success:)`
    /// reaches the system once the end has landed.
    @Test func aScheduledTaskNeverWaitsForTheDisk() throws {
        let fixture = DurableWriteTests.Fixture()
        defer { fixture.capture.stop() }
        let expirationHandler = LockedValue<(@Sendable () -> Void)?>(nil)
        let completions = BackgroundWorkTests.Calls<Bool>()
        let written = LockedValue<[EventKind]>([])
        try fixture.stallTheWriter()
        let task = fixture.recorder.beginScheduledTask(
            .processing, identifier: "com.example.index",
            setExpirationHandler: { handler in expirationHandler.withLock { $0 = handler } },
            setTaskCompleted: { success in
                written.withLock { $0 = fixture.writer.events.map(\.kind) }
                completions.record(success)
            })
        let handler = try #require(expirationHandler.withLock { $0 })
        let expiring = Self.time { handler() }
        let completing = Self.time { task.setTaskCompleted(success: false) }
        #expect(
            expiring < DurableWriteTests.quickReturn, "the expiration handler waited \(expiring) for a stalled write")
        #expect(completing < DurableWriteTests.quickReturn, "setTaskCompleted waited \(completing) for a stalled write")
        #expect(!completions.waitForOne(atMost: .milliseconds(300)))
        fixture.writer.release()
        #expect(completions.waitForOne(atMost: .seconds(10)))
        #expect(completions.all == [false])
        #expect(written.withLock { $0 } == [.custom, .bgProcessingBegin, .taskExpire, .bgProcessingEnd])
    }
}
