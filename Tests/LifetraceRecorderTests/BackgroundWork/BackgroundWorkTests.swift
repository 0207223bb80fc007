import Dispatch
import Foundation
import LifetraceConcurrency
import LifetraceCore
import LifetraceTestSupport
import Testing

@testable import LifetraceRecorder

/// The helpers around `beginBackgroundTask` and `BGTask` record what the documentation says happens, with the
/// system's calls played by closures.
@Suite struct BackgroundWorkTests {
    let directory = TemporaryDirectory()

    /// The calls a system closure received, in order, from whatever thread they come (the recorder makes some
    /// from a thread of its own).
    final class Calls<Value: Sendable>: Sendable {
        private let values = LockedValue<[Value]>([])
        private let signal = DispatchSemaphore(value: 0)

        /// Records a call with `value`.
        func record(_ value: Value) {
            values.withLock { $0.append(value) }
            signal.signal()
        }

        /// The calls so far.
        var all: [Value] { values.withLock { $0 } }

        /// Waits for the next call; whether one came within `bound`.
        func waitForOne(atMost bound: DispatchTimeInterval) -> Bool {
            signal.wait(timeout: .now() + bound) == .success
        }
    }

    /// A stand-in for UIApplication: hands out identifiers, keeps each task's expiration handler, and records
    /// each end.
    final class FakeApplication: Sendable {
        private let state = LockedValue<(handlers: [Int: @Sendable () -> Void], next: Int)>(([:], 6))
        /// The identifiers `endBackgroundTask(_:)` was called with.
        let ends = Calls<Int>()
        /// What `endBackgroundTask(_:)` does besides recording the end, before it records it.
        let onEnd: (@Sendable (FakeApplication, Int) -> Void)?

        init(onEnd: (@Sendable (FakeApplication, Int) -> Void)? = nil) {
            self.onEnd = onEnd
        }

        func begin(_ name: String?, _ handler: @escaping @Sendable () -> Void) -> Int {
            state.withLock { state in
                state.next += 1
                state.handlers[state.next] = handler
                return state.next
            }
        }

        /// `endBackgroundTask(_:)`.
        func end(_ identifier: Int) {
            onEnd?(self, identifier)
            ends.record(identifier)
        }

        /// The expiration handler of task `identifier`.
        func handler(_ identifier: Int) -> (@Sendable () -> Void)? {
            state.withLock { $0.handlers[identifier] }
        }

        /// The identifiers ended so far, in order.
        var ended: [Int] { ends.all }

        /// Waits for the next end; whether one came within `bound`.
        func waitForAnEnd(atMost bound: DispatchTimeInterval) -> Bool {
            ends.waitForOne(atMost: bound)
        }
    }

    func events(_ path: String) throws -> [LifecycleEvent] {
        Array(try RecorderTraces.read(path).events.dropFirst())  // after process.launch
    }

    /// A task that finishes its work: begin, end; ending it twice ends it once.
    @Test func aTaskThatFinishesIsBegunAndEndedOnce() throws {
        let path = directory.file("task.lifetrace")
        let app = FakeApplication()
        let recorder = try Recorder(file: URL(fileURLWithPath: path))
        let task = recorder.beginBackgroundTask(name: "upload", begin: app.begin, end: app.end)
        task.end()
        task.end()
        #expect(app.waitForAnEnd(atMost: .seconds(10)))
        try recorder.close()
        #expect(!app.waitForAnEnd(atMost: .milliseconds(100)), "the task was ended twice")
        #expect(app.ended == [7])
        let events = try events(path)
        #expect(events.map(\.kind) == [.taskBegin, .taskEnd])
        #expect(events.map(\.task) == [7, 7])
        #expect(events[0].name == "upload")
    }

    /// When time runs out the expiration handler runs: the trace shows the expiry, the work is stopped, and
    /// the task is ended before the handler returns, as `beginBackgroundTask(withName:expirationHandler:)` requires.
    @Test func theExpirationHandlerStopsTheWorkAndEndsTheTask() throws {
        let path = directory.file("expire.lifetrace")
        let app = FakeApplication()
        let recorder = try Recorder(file: URL(fileURLWithPath: path))
        let stopped = LockedFlag()
        let task = recorder.beginBackgroundTask(
            name: "sync", begin: app.begin, end: app.end, onExpiration: { stopped.set() })
        app.handler(task.identifier)?()
        #expect(app.ended == [7])
        task.end()  // the work's own completion, after the handler: already ended
        try recorder.close()
        #expect(stopped.isSet)
        #expect(app.ended == [7])
        #expect(try events(path).map(\.kind) == [.taskBegin, .taskExpire, .taskEnd])
    }

    /// The trace holds a task's end before the system is told: an app with no task left may be suspended at
    /// once, and killed while suspended, so what a timer would write later is never written.
    @Test func aTaskIsWrittenEndedBeforeTheSystemEndsIt() throws {
        let path = directory.file("written.lifetrace")
        let writtenAtEnd = LockedValue<[EventKind]>([])
        let app = FakeApplication(onEnd: { _, _ in
            writtenAtEnd.withLock { $0 = (try? RecorderTraces.read(path).events.dropFirst().map(\.kind)) ?? [] }
        })
        let recorder = try Recorder(
            file: URL(fileURLWithPath: path), configuration: .init(flushInterval: .seconds(3600)))
        let task = recorder.beginBackgroundTask(name: "upload", begin: app.begin, end: app.end)
        task.end()
        #expect(app.waitForAnEnd(atMost: .seconds(10)))
        #expect(writtenAtEnd.withLock { $0 } == [.taskBegin, .taskEnd])
        try recorder.close()
    }

    /// A `BGTask`'s expiry and end are written before `setTaskCompleted(success:)` is called.
    @Test func aScheduledTaskIsWrittenBeforeTheSystemIsTold() throws {
        let path = directory.file("bg-written.lifetrace")
        let recorder = try Recorder(
            file: URL(fileURLWithPath: path), configuration: .init(flushInterval: .seconds(3600)))
        let expirationHandler = LockedValue<(@Sendable () -> Void)?>(nil)
        let writtenAtCompletion = LockedValue<[EventKind]>([])
        let completions = Calls<Bool>()
        let refresh = recorder.beginScheduledTask(
            .appRefresh, identifier: "com.example.refresh",
            setExpirationHandler: { handler in expirationHandler.withLock { $0 = handler } },
            setTaskCompleted: { success in
                writtenAtCompletion.withLock {
                    $0 = (try? RecorderTraces.read(path).events.dropFirst().map(\.kind)) ?? []
                }
                completions.record(success)
            })
        expirationHandler.withLock { $0 }?()
        refresh.setTaskCompleted(success: false)
        #expect(completions.waitForOne(atMost: .seconds(10)))
        #expect(writtenAtCompletion.withLock { $0 } == [.bgRefreshBegin, .taskExpire, .bgRefreshEnd])
        #expect(completions.all == [false])
        try recorder.close()
    }

    /// The expiration handler, called while the work's completion is telling the system the task ended, waits
    /// until it has, so that it returns with the task ended, as UIKit asks; a task already ended records no expiry.
    @Test func theExpirationHandlerReturnsOnlyOnceTheTaskIsEnded() throws {
        let path = directory.file("race.lifetrace")
        let handlerReturned = LockedFlag()
        let returnedWhileEnding = LockedFlag()
        let app = FakeApplication(onEnd: { app, identifier in
            // UIKit calls the expiration handler now, on another thread, while endBackgroundTask(_:) runs.
            let handler = app.handler(identifier)
            Thread {
                handler?()
                handlerReturned.set()
            }.start()
            Thread.sleep(forTimeInterval: 0.05)
            if handlerReturned.isSet { returnedWhileEnding.set() }
        })
        let recorder = try Recorder(file: URL(fileURLWithPath: path))
        let task = recorder.beginBackgroundTask(name: "sync", begin: app.begin, end: app.end)
        task.end()
        #expect(app.waitForAnEnd(atMost: .seconds(10)))
        while !handlerReturned.isSet { Thread.sleep(forTimeInterval: 0.001) }
        try recorder.close()
        #expect(!returnedWhileEnding.isSet)
        #expect(app.ended == [7])
        #expect(try events(path).map(\.kind) == [.taskBegin, .taskEnd])
    }

    /// `.invalid` (0) from the system: nothing to record, nothing to end.
    @Test func anInvalidTaskRecordsNothing() throws {
        let path = directory.file("invalid.lifetrace")
        let recorder = try Recorder(file: URL(fileURLWithPath: path))
        let task = recorder.beginBackgroundTask(
            begin: { _, _ in 0 }, end: { _ in Issue.record("ended an invalid task") })
        task.end()
        try recorder.close()
        #expect(!task.isValid)
        #expect(try events(path).isEmpty)
    }

    /// A BGAppRefreshTask that expires and is completed unsuccessfully, and a processing task that completes.
    @Test func scheduledTasksRecordBeginExpiryAndCompletion() throws {
        let path = directory.file("bg.lifetrace")
        let recorder = try Recorder(file: URL(fileURLWithPath: path))
        let expirationHandler = LockedValue<(@Sendable () -> Void)?>(nil)
        let completions = Calls<Bool>()
        let refresh = recorder.beginScheduledTask(
            .appRefresh, identifier: "com.example.refresh",
            setExpirationHandler: { handler in expirationHandler.withLock { $0 = handler } },
            setTaskCompleted: completions.record)
        expirationHandler.withLock { $0 }?()
        refresh.setTaskCompleted(success: false)
        refresh.setTaskCompleted(success: true)
        #expect(completions.waitForOne(atMost: .seconds(10)))
        let processing = recorder.beginScheduledTask(
            .processing, identifier: "com.example.index",
            setExpirationHandler: { _ in }, setTaskCompleted: completions.record)
        processing.setTaskCompleted(success: true)
        #expect(completions.waitForOne(atMost: .seconds(10)))
        try recorder.close()
        #expect(!completions.waitForOne(atMost: .milliseconds(100)), "a task was completed twice")
        #expect(completions.all == [false, true])
        let events = try events(path)
        #expect(
            events.map(\.kind) == [.bgRefreshBegin, .taskExpire, .bgRefreshEnd, .bgProcessingBegin, .bgProcessingEnd])
        #expect(events[0].name == "com.example.refresh" && events[3].name == "com.example.index")
        #expect(events[2].attrs == [Attribute("success", .bool(false))])
        #expect(refresh.id >= 1 << 32 && processing.id == refresh.id + 1)
        #expect(events.map(\.task) == [refresh.id, refresh.id, refresh.id, processing.id, processing.id])
    }
}

/// A flag set from any thread.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
