import Foundation
import LifetraceConcurrency
import LifetraceCore
@testable import LifetraceRecorder
import LifetraceTestSupport
import Testing

/// The helpers around `beginBackgroundTask` and `BGTask` record what the documentation says happens, with the
/// system's calls played by closures.
@Suite struct BackgroundWorkTests {
    let directory = TemporaryDirectory()

    /// A stand-in for UIApplication: hands out identifiers and keeps each task's expiration handler.
    final class FakeApplication: @unchecked Sendable {
        var handlers: [Int: @Sendable () -> Void] = [:]
        var ended: [Int] = []
        var next = 6

        func begin(_ name: String?, _ handler: @escaping @Sendable () -> Void) -> Int {
            next += 1
            handlers[next] = handler
            return next
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
        let task = recorder.beginBackgroundTask(name: "upload", begin: app.begin, end: { app.ended.append($0) })
        task.end()
        task.end()
        try recorder.close()
        #expect(app.ended == [7])
        let events = try events(path)
        #expect(events.map(\.kind) == [.taskBegin, .taskEnd])
        #expect(events.map(\.task) == [7, 7])
        #expect(events[0].name == "upload")
    }

    /// When time runs out the expiration handler runs: the trace shows the expiry, the work is stopped, and
    /// the task is ended inside the handler, as `beginBackgroundTask(withName:expirationHandler:)` requires.
    @Test func theExpirationHandlerStopsTheWorkAndEndsTheTask() throws {
        let path = directory.file("expire.lifetrace")
        let app = FakeApplication()
        let recorder = try Recorder(file: URL(fileURLWithPath: path))
        let stopped = LockedFlag()
        let task = recorder.beginBackgroundTask(name: "sync", begin: app.begin, end: { app.ended.append($0) },
                                                onExpiration: { stopped.set() })
        app.handlers[task.identifier]?()
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
        let app = FakeApplication()
        let recorder = try Recorder(file: URL(fileURLWithPath: path), configuration: .init(flushInterval: .seconds(3600)))
        nonisolated(unsafe) var writtenAtEnd: [EventKind] = []
        let task = recorder.beginBackgroundTask(name: "upload", begin: app.begin, end: { _ in
            writtenAtEnd = (try? self.events(path).map(\.kind)) ?? []
        })
        task.end()
        #expect(writtenAtEnd == [.taskBegin, .taskEnd])
        try recorder.close()
    }

    /// A `BGTask`'s expiry is written before its work is stopped, and its end before `setTaskCompleted(success:)`.
    @Test func aScheduledTaskIsWrittenBeforeTheSystemIsTold() throws {
        let path = directory.file("bg-written.lifetrace")
        let recorder = try Recorder(file: URL(fileURLWithPath: path), configuration: .init(flushInterval: .seconds(3600)))
        nonisolated(unsafe) var expirationHandler: (@Sendable () -> Void)?
        nonisolated(unsafe) var writtenAtExpiry: [EventKind] = []
        nonisolated(unsafe) var writtenAtCompletion: [EventKind] = []
        let refresh = recorder.beginScheduledTask(.appRefresh, identifier: "com.example.refresh",
                                                  setExpirationHandler: { expirationHandler = $0 },
                                                  setTaskCompleted: { _ in
                                                      writtenAtCompletion = (try? self.events(path).map(\.kind)) ?? []
                                                  },
                                                  onExpiration: { writtenAtExpiry = (try? self.events(path).map(\.kind)) ?? [] })
        expirationHandler?()
        refresh.setTaskCompleted(success: false)
        #expect(writtenAtExpiry == [.bgRefreshBegin, .taskExpire])
        #expect(writtenAtCompletion == [.bgRefreshBegin, .taskExpire, .bgRefreshEnd])
        try recorder.close()
    }

    /// The expiration handler, called while the work's completion is ending the task, waits until the task is
    /// ended, so that it returns with the task ended, as UIKit asks; a task already ended records no expiry.
    @Test func theExpirationHandlerReturnsOnlyOnceTheTaskIsEnded() throws {
        let path = directory.file("race.lifetrace")
        let app = FakeApplication()
        let recorder = try Recorder(file: URL(fileURLWithPath: path))
        let handlerReturned = LockedFlag()
        nonisolated(unsafe) var returnedWhileEnding = false
        nonisolated(unsafe) var handlerThread: Thread?
        let task = recorder.beginBackgroundTask(name: "sync", begin: app.begin, end: { id in
            // UIKit calls the expiration handler now, on another thread.
            let handler = app.handlers[id]
            handlerThread = Thread { handler?(); handlerReturned.set() }
            handlerThread?.start()
            Thread.sleep(forTimeInterval: 0.05)
            returnedWhileEnding = handlerReturned.isSet
            app.ended.append(id)
        })
        task.end()
        while !handlerReturned.isSet { Thread.sleep(forTimeInterval: 0.001) }
        try recorder.close()
        #expect(!returnedWhileEnding)
        #expect(app.ended == [7])
        #expect(try events(path).map(\.kind) == [.taskBegin, .taskEnd])
    }

    /// `.invalid` (0) from the system: nothing to record, nothing to end.
    @Test func anInvalidTaskRecordsNothing() throws {
        let path = directory.file("invalid.lifetrace")
        let recorder = try Recorder(file: URL(fileURLWithPath: path))
        let task = recorder.beginBackgroundTask(begin: { _, _ in 0 }, end: { _ in Issue.record("ended an invalid task") })
        task.end()
        try recorder.close()
        #expect(!task.isValid)
        #expect(try events(path).isEmpty)
    }

    /// A BGAppRefreshTask that expires and is completed unsuccessfully, and a processing task that completes.
    @Test func scheduledTasksRecordBeginExpiryAndCompletion() throws {
        let path = directory.file("bg.lifetrace")
        let recorder = try Recorder(file: URL(fileURLWithPath: path))
        nonisolated(unsafe) var expirationHandler: (@Sendable () -> Void)?
        nonisolated(unsafe) var completions: [Bool] = []
        let refresh = recorder.beginScheduledTask(.appRefresh, identifier: "com.example.refresh",
                                                  setExpirationHandler: { expirationHandler = $0 },
                                                  setTaskCompleted: { completions.append($0) })
        expirationHandler?()
        refresh.setTaskCompleted(success: false)
        refresh.setTaskCompleted(success: true)
        let processing = recorder.beginScheduledTask(.processing, identifier: "com.example.index",
                                                     setExpirationHandler: { _ in }, setTaskCompleted: { completions.append($0) })
        processing.setTaskCompleted(success: true)
        try recorder.close()
        #expect(completions == [false, true])
        let events = try events(path)
        #expect(events.map(\.kind) == [.bgRefreshBegin, .taskExpire, .bgRefreshEnd, .bgProcessingBegin, .bgProcessingEnd])
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
