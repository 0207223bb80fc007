import Foundation
import LifetraceCore
import LifetraceFormat
import LifetraceTestSupport
import Testing

@testable import LifetraceRecorder

@Suite struct RecorderTests {
    let directory = TemporaryDirectory()

    /// The events after the `process.launch` a recorder of a file starts with (``manualRecorder`` writes none).
    func readAll(_ path: String) throws -> (TraceReader, [LifecycleEvent]) {
        let reader = try TraceReader(path: path, codec: .stored)
        var events: [LifecycleEvent] = []
        while let event = try reader.next() { events.append(event) }
        return (reader, events.first?.kind == .processLaunch ? Array(events.dropFirst()) : events)
    }

    /// A recorder of the file at `path` on time that moves only when the test moves it.
    func manualRecorder(_ path: String, _ configuration: RecorderConfiguration) throws
        -> (Recorder, ManualTimeSource)
    {
        let time = ManualTimeSource()
        let writer = try BinaryTraceWriter(sink: try FileSink(path: path), header: TraceHeader(clock: .continuous))
        return (Recorder(writer: writer, time: time, configuration: configuration), time)
    }

    @Test func recordsTheSeedsColdLaunchInOrderWithHeader() throws {
        let path = directory.file("launch.lifetrace")
        let recorder = try Recorder(file: URL(fileURLWithPath: path), app: "com.example.app", sceneManifest: true)
        recorder.measure(.appDidFinishLaunching) {}
        recorder.measure(.sceneWillConnect, scene: "S1") {}
        recorder.record(.sceneWillEnterForeground, scene: "S1")
        recorder.record(.sceneDidBecomeActive, scene: "S1")
        recorder.mark("first-frame")
        try recorder.close()

        // A recorder of a file starts with the process's launch.
        #expect(try TraceReader(path: path, codec: .stored).next()?.kind == .processLaunch)
        let (reader, events) = try readAll(path)
        #expect(
            events.map(\.eventName) == [
                "app.didFinishLaunching", "scene.willConnect", "scene.willEnterForeground",
                "scene.didBecomeActive", "custom.first-frame",
            ])
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.t <= $1.t })
        #expect(events[0].dur != nil && events[1].dur != nil)
        let launch = try #require(try TraceReader(path: path, codec: .stored).next())
        #expect(launch.reason == "unknown" && launch.pid == Int64(ProcessInfo.processInfo.processIdentifier))
        #expect(launch.attrs == nil)  // not prewarmed
        #expect(reader.header?.app == "com.example.app")
        #expect(reader.header?.sceneManifest == true)
        #expect(reader.header?.clock == .continuous)
        #expect(reader.header?.startUnixNanoseconds != nil)
        #expect(reader.statistics.indexPresent)
    }

    /// Every optional field comes back from the file as it was given, whichever method recorded it: a relayed
    /// event, an event recorded now, a marker, and a span with the duration its end measured.
    @Test func everyOptionalFieldComesBackAsRecorded() throws {
        let path = directory.file("fields.lifetrace")
        let (recorder, time) = try manualRecorder(path, RecorderConfiguration())
        let attrs = [Attribute("color", .string("blue")), Attribute("count", .int(7))]
        let relayed = LifecycleEvent(
            t: 5, kind: .custom, label: "relayed", scene: "S1", dur: 9, task: 3, name: "n1",
            phase: .background, reason: "r1", pid: 42, attrs: attrs)
        #expect(recorder.record(relayed))
        time.advance(by: 10)
        recorder.record(
            .taskBegin, scene: "S2", task: 4, name: "upload", phase: .inactive, reason: "r2", pid: 43,
            attrs: attrs)
        time.advance(by: 10)
        recorder.mark("save", scene: "S3", attrs: attrs)
        let span = recorder.beginSpan(.sceneDidEnterBackground, scene: "S4", phase: .background)
        time.advance(by: 25)
        span.end()
        try recorder.close()
        let (_, events) = try readAll(path)
        #expect(
            events == [
                relayed,
                LifecycleEvent(
                    t: 10, kind: .taskBegin, scene: "S2", task: 4, name: "upload", phase: .inactive,
                    reason: "r2", pid: 43, attrs: attrs),
                LifecycleEvent(t: 20, kind: .custom, label: "save", scene: "S3", attrs: attrs),
                LifecycleEvent(t: 20, kind: .sceneDidEnterBackground, scene: "S4", dur: 25, phase: .background),
            ])
    }

    @Test func aSpanMeasuresItsHandlerAndKeepsItsStartPosition() throws {
        let path = directory.file("span.lifetrace")
        let recorder = try Recorder(file: URL(fileURLWithPath: path))
        let span = recorder.beginSpan(.sceneDidEnterBackground, scene: "S1")
        // Another thread records while the handler runs: it must come after the handler's event.
        let recorded = DispatchSemaphore(value: 0)
        let other = Thread {
            recorder.record(.taskBegin, task: 1, name: "save")
            recorded.signal()
        }
        other.start()
        recorded.wait()
        usleep(20_000)  // the handler's own work: at least 20 ms
        span.end()
        try recorder.close()
        let (_, events) = try readAll(path)
        #expect(events.map(\.kind) == [.sceneDidEnterBackground, .taskBegin])
        let dur = try #require(events[0].dur)
        #expect(dur >= 20_000_000)
        #expect(events[0].t <= events[1].t)
        #expect(events[1].t <= events[0].t + dur)
    }

    @Test func beginAndEndTaskPairIDs() throws {
        let path = directory.file("tasks.lifetrace")
        let recorder = try Recorder(file: URL(fileURLWithPath: path))
        let first = recorder.beginTask(name: "upload")
        let second = recorder.beginTask()
        recorder.endTask(second)
        recorder.endTask(first)
        try recorder.close()
        let (_, events) = try readAll(path)
        #expect(events.map(\.kind) == [.taskBegin, .taskBegin, .taskEnd, .taskEnd])
        #expect(events.map(\.task) == [first, second, second, first].map(\.rawValue))
        #expect(first == TaskID(rawValue: 1) && second == TaskID(rawValue: 2))
        #expect(events[0].name == "upload" && events[1].name == nil)
    }

    @Test func manyThreadsLoseNothingAndKeepTimeOrder() throws {
        let path = directory.file("threads.lifetrace")
        let recorder = try Recorder(file: URL(fileURLWithPath: path), configuration: .init(bufferCapacity: 1000))
        let threads = 4
        let perThread = 5000
        DispatchQueue.concurrentPerform(iterations: threads) { index in
            for i in 0..<perThread { recorder.record(.heartbeat, task: Int64(index * perThread + i)) }
        }
        try recorder.close()
        let (_, events) = try readAll(path)
        #expect(events.count == threads * perThread)
        #expect(Set(events.compactMap(\.task)).count == threads * perThread)
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.t <= $1.t })
        #expect(recorder.droppedEventCount == 0)
    }

    @Test func theDropPolicyCountsLossesAndSaysSoInTheTrace() throws {
        let path = directory.file("drop.lifetrace")
        let recorder = try Recorder(
            file: URL(fileURLWithPath: path),
            configuration: .init(
                flushInterval: .seconds(3600), bufferCapacity: 16,
                overflowPolicy: .drop))
        // The buffer holds 16 events, the process.launch among them.
        for i in 0..<40 { recorder.record(.heartbeat, task: Int64(i)) }
        #expect(recorder.droppedEventCount == 25)
        try recorder.flush()
        recorder.record(.sceneDidBecomeActive, scene: "S1")
        try recorder.close()
        let (_, events) = try readAll(path)
        #expect(events.count == 15 + 2)
        let notice = try #require(events.first { $0.kind == .recorderDropped })
        #expect(notice.attrs == [Attribute("dropped", .int(25))])
        #expect(events.last?.kind == .sceneDidBecomeActive)
        #expect(events.filter { $0.kind == .heartbeat }.map(\.task) == (0..<15).map { Int64($0) })
    }

    @Test func metadataGoesInTheHeaderInTheOrderGiven() throws {
        let path = directory.file("metadata.lifetrace")
        let recorder = try Recorder(
            file: URL(fileURLWithPath: path), app: "com.example.app",
            metadata: ["app_version": "2.3", "build": "417", "beta": true])
        recorder.record(.sceneDidBecomeActive, scene: "S1")
        try recorder.close()
        let (reader, _) = try readAll(path)
        let header = try #require(reader.header)
        #expect(header[.appVersion] == .string("2.3"))
        #expect(header[.build] == .string("417"))
        let keys = header.extra.map(\.key)
        #expect(keys.firstIndex(of: "app_version")! < keys.firstIndex(of: "build")!)
        #expect(keys.firstIndex(of: "build")! < keys.firstIndex(of: "beta")!)
    }

    /// Metadata a reader would refuse never reaches a header: `build` is a string in the trace format's schema
    /// (`Schemas/trace-event.schema.json`), `heartbeat_ns` an integer, `capture` one of its names, and `clock`
    /// is the header's own member. Each is refused with one line naming the member, before a file exists.
    @Test(arguments: [
        (TraceMetadata(dictionaryLiteral: ("build", 417)), "metadata: \"build\" must be a string"),
        (TraceMetadata(dictionaryLiteral: ("heartbeat_ns", "1s")), "metadata: \"heartbeat_ns\" must be an integer"),
        (
            TraceMetadata(dictionaryLiteral: ("capture", "swizzling")),
            "metadata: \"capture\" must be callbacks or notifications"
        ),
        (
            TraceMetadata(dictionaryLiteral: ("clock", "wall")),
            "metadata: \"clock\" is not metadata: the header states it itself"
        ),
    ])
    func metadataItsReadersWouldRefuseIsRefused(metadata: TraceMetadata, message: String) throws {
        let path = directory.file("refused.lifetrace")
        #expect {
            _ = try Recorder(file: URL(fileURLWithPath: path), app: "com.example.app", metadata: metadata)
        } throws: { error in
            (error as? TraceError)?.description == path + ": " + message
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func theBlockPolicyWritesOutInsteadOfDropping() throws {
        let path = directory.file("block.lifetrace")
        let recorder = try Recorder(
            file: URL(fileURLWithPath: path), configuration: .init(flushInterval: .seconds(3600), bufferCapacity: 16))
        for i in 0..<100 { recorder.record(.heartbeat, task: Int64(i)) }
        try recorder.close()
        let (reader, events) = try readAll(path)
        #expect(events.count == 100)
        #expect(recorder.droppedEventCount == 0)
        #expect(reader.statistics.dataFrames > 1)
    }

    @Test func theTimerFlushesSoAnotherProcessSeesEventsBeforeClose() throws {
        let path = directory.file("live.lifetrace")
        let (recorder, time) = try manualRecorder(path, .init(flushInterval: .milliseconds(50)))
        recorder.record(.sceneWillConnect, scene: "S1")
        recorder.record(.sceneWillEnterForeground, scene: "S1")
        // Nothing is on disk before the first flush; within one interval, everything is.
        #expect((try? TraceReader(path: path, codec: .stored)).flatMap { try? $0.next() } == nil)
        time.advance(by: 50_000_000)
        recorder.waitForWriter()
        let (reader, events) = try readAll(path)
        #expect(events.count == 2)
        #expect(!reader.statistics.indexPresent)
        try recorder.close()
    }

    @Test func heartbeatsArriveAtTheirInterval() throws {
        let path = directory.file("heartbeat.lifetrace")
        let (recorder, time) = try manualRecorder(
            path,
            .init(
                flushInterval: .milliseconds(50),
                heartbeatInterval: .milliseconds(50)))
        time.advance(by: 500_000_000)
        try recorder.close()
        let (_, events) = try readAll(path)
        let beats = events.filter { $0.kind == .heartbeat }
        // One as recording starts, then one every 50 ms (the timer ticks every 25 ms; a beat is due at 45).
        #expect(beats.count == 11)
        #expect(beats.count >= 4)
        let gaps = zip(beats, beats.dropFirst()).map { $1.t - $0.t }
        #expect(gaps.allSatisfy { $0 >= 40_000_000 })
    }

    /// No flush waits for a handler: a span still open at a flush is written at once without its duration,
    /// so a process killed inside the handler keeps it; when the handler returns, `handler.return` brings the
    /// duration.
    @Test func aSpanOpenAtAFlushIsWrittenUnfinishedAndItsReturnFollows() throws {
        let path = directory.file("hold.lifetrace")
        let (recorder, time) = try manualRecorder(path, .init(flushInterval: .milliseconds(20)))
        let span = recorder.beginSpan(.sceneDidEnterBackground, scene: "S1")
        recorder.record(.heartbeat)
        time.advance(by: 300_000_000)
        recorder.waitForWriter()
        // Already written: the event is on disk without its duration, and the heartbeat after it too.
        let (_, early) = try readAll(path)
        #expect(early.map(\.kind) == [.sceneDidEnterBackground, .heartbeat])
        #expect(early[0].dur == nil)
        #expect(early[0].attrs == [Attribute("unfinished", .bool(true))])
        span.end()
        try recorder.close()
        let (_, events) = try readAll(path)
        #expect(events.map(\.kind) == [.sceneDidEnterBackground, .heartbeat, .handlerReturn])
        let returned = events[2]
        #expect(returned.name == "scene.didEnterBackground")
        #expect(returned.scene == "S1")
        // It returned 300 ms after it began; its `t` is when it returned: its start plus its duration.
        #expect(returned.dur == 300_000_000)
        #expect(returned.t == events[0].t + 300_000_000)
    }

    /// A handler that returns between flushes keeps its duration on its own event: no `handler.return`.
    @Test func aSpanEndedBeforeTheFlushHasItsDuration() throws {
        let path = directory.file("short.lifetrace")
        let (recorder, time) = try manualRecorder(path, .init(flushInterval: .seconds(3600)))
        recorder.measure(.sceneDidBecomeActive, scene: "S1") { time.advance(by: 2_000_000) }
        try recorder.close()
        let (_, events) = try readAll(path)
        #expect(events.map(\.kind) == [.sceneDidBecomeActive])
        #expect(events[0].dur == 2_000_000)
        #expect(events[0].attrs == nil)
    }
}
