import Dispatch
import Foundation
import LifetraceCore
import LifetraceFormat
import LifetraceTestSupport
import Testing

@testable import LifetraceRecorder

/// A recorder's periodic work runs only while it has something to do, and closing is safe however it is done.
@Suite struct RecorderLifetimeTests {
    let directory = TemporaryDirectory()

    func manualRecorder(_ name: String, _ configuration: RecorderConfiguration) throws -> (Recorder, ManualTimeSource) {
        let time = ManualTimeSource()
        let sink = try #require(try FileSink.createNew(path: directory.file(name)))
        let recorder = Recorder(
            sink: sink, header: TraceHeader(clock: .continuous), time: time,
            configuration: configuration, probes: .system)
        return (recorder, time)
    }

    /// No timer runs while nothing is buffered (Apple, "Energy Efficiency Guide for iOS Apps": minimize timer
    /// use); the first event arms it, and it stops once what it wrote leaves nothing behind.
    @Test func theTimerRunsOnlyWhileSomethingIsBuffered() throws {
        let (recorder, time) = try manualRecorder("idle.lifetrace", .init(flushInterval: .milliseconds(100)))
        #expect(!recorder.isTimerArmed)
        recorder.mark("one")
        #expect(recorder.isTimerArmed)
        time.advance(by: 50_000_000)  // a tick: the flush is queued
        recorder.waitForWriter()
        time.advance(by: 50_000_000)  // the next finds nothing buffered and stops
        #expect(!recorder.isTimerArmed)
        recorder.mark("two")
        #expect(recorder.isTimerArmed)
        time.advance(by: 50_000_000)
        recorder.waitForWriter()
        // Written by the timer, not by a close: both marks are in the file already.
        let (_, events) = try RecorderTraces.read(directory.file("idle.lifetrace"))
        #expect(events.compactMap(\.label) == ["one", "two"])
        try recorder.close()
        #expect(!recorder.isTimerArmed)
    }

    /// Heartbeats ask for the timer all the time.
    @Test func heartbeatsKeepTheTimer() throws {
        let (recorder, time) = try manualRecorder(
            "beats.lifetrace",
            .init(
                flushInterval: .milliseconds(100),
                heartbeatInterval: .milliseconds(200)))
        for _ in 0..<10 {
            time.advance(by: 50_000_000)
            recorder.waitForWriter()
        }
        #expect(recorder.isTimerArmed)
        try recorder.close()
        let (_, events) = try RecorderTraces.read(directory.file("beats.lifetrace"))
        // One at the start, then one every 200 ms of the 500 ms.
        #expect(events.filter { $0.kind == .heartbeat }.count == 3)
    }

    /// Closing twice, or from several threads at once, closes once and throws nothing; events after it are
    /// counted, not lost unsaid.
    @Test func closeIsIdempotentAndLaterEventsAreCounted() throws {
        let path = directory.file("close.lifetrace")
        let recorder = try Recorder(file: URL(fileURLWithPath: path))
        let failures = LockedCounter()
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            if index % 2 == 0 { recorder.record(.heartbeat) }
            do { try recorder.close() } catch { failures.add() }
        }
        #expect(failures.value == 0)
        #expect(recorder.isClosed)
        let before = recorder.droppedEventCount
        recorder.record(.heartbeat)
        recorder.mark("late")
        #expect(recorder.droppedEventCount == before + 2)
        try recorder.close()
        let (reader, events) = try (TraceReader(path: path, codec: .stored), RecorderTraces.read(path).events)
        while try reader.next() != nil {}
        #expect(reader.statistics.indexPresent)
        #expect(!events.contains { $0.label == "late" })
    }
}

/// A count several threads add to.
private final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() {
        lock.lock()
        count += 1
        lock.unlock()
    }
    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
