import Foundation
import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat
import LifetraceTestSupport
import Testing

@testable import LifetraceRecorder

/// What a recorder writes when writing goes wrong, and what its header tells the analyzer.
@Suite struct RecorderOutputTests {
    let directory = TemporaryDirectory()

    /// A sink whose writes fail while `failing` is set, as a full disk or locked protected data does.
    final class FailingSink: TraceSink, @unchecked Sendable {
        var bytes: [UInt8] = []
        var failing = false
        func write(_ bytes: UnsafeRawBufferPointer) throws(TraceError) {
            if failing { throw TraceError(.io, file: "sink", at: .file, "write failed: No space left on device") }
            self.bytes.append(contentsOf: bytes)
        }
        func flush() throws(TraceError) {}
    }

    /// Events lost to failed writes are counted, said in a `recorder.dropped` event, and recording goes on.
    @Test func aFailedWriteIsCountedInTheTraceAndRecordingGoesOn() throws {
        let sink = FailingSink()
        let writer = try BinaryTraceWriter(sink: sink, header: TraceHeader(app: "x"))
        let recorder = Recorder(writer: writer, configuration: .init(flushInterval: .seconds(3600)))
        recorder.record(.sceneWillConnect, scene: "S1")
        try recorder.flush()
        sink.failing = true
        recorder.record(.sceneWillEnterForeground, scene: "S1")
        recorder.record(.sceneDidBecomeActive, scene: "S1")
        #expect(throws: TraceError.self) { try recorder.flush() }
        sink.failing = false
        recorder.record(.sceneWillResignActive, scene: "S1")
        try recorder.close()
        #expect(recorder.droppedEventCount == 2)
        let path = directory.write("failed.lifetrace", sink.bytes)
        let (_, events) = try RecorderTraces.read(path)
        #expect(events.map(\.kind) == [.sceneWillConnect, .recorderDropped, .sceneWillResignActive])
        #expect(events[1].attrs == [Attribute("dropped", .int(2)), Attribute("cause", .string("write-failed"))])
    }

    /// Drops after the last event are still reported, at the close (one thread, a full buffer).
    @Test func dropsAfterTheLastEventAreReportedAtClose() throws {
        let path = directory.file("late-drops.lifetrace")
        let recorder = try Recorder(
            file: URL(fileURLWithPath: path),
            configuration: .init(
                flushInterval: .seconds(3600), bufferCapacity: 16,
                overflowPolicy: .drop))
        for _ in 0..<1000 { recorder.record(.heartbeat) }
        try recorder.close()
        let (_, events) = try RecorderTraces.read(path)
        let reported = events.filter { $0.kind == .recorderDropped }.compactMap { $0.attrs?.first?.value }
        #expect(recorder.droppedEventCount == 1000 - 15)
        #expect(reported == [.int(1000 - 15)])
    }

    /// The heartbeat interval is in the header, and the analyzer infers suspension from twice it rather than
    /// its 10 s default: a 50 ms heartbeat stopping for 300 ms in the background is a suspension.
    @Test func theHeartbeatIntervalIsInTheHeaderAndDrivesInference() throws {
        let path = directory.file("beats.lifetrace")
        let recorder = try Recorder(
            file: URL(fileURLWithPath: path), configuration: .init(heartbeatInterval: .milliseconds(50)))
        try recorder.close()
        let header = try #require(try RecorderTraces.read(path).header)
        #expect(header.heartbeatNanoseconds == 50_000_000)

        func suspensions(_ header: TraceHeader) -> Int {
            let analyzer = TraceAnalyzer(file: "x", header: header)
            let ms: Int64 = 1_000_000
            let events: [LifecycleEvent] = [
                LifecycleEvent(t: 0, kind: .processLaunch, reason: "user"),
                LifecycleEvent(t: 1 * ms, kind: .sceneWillConnect, scene: "S1"),
                LifecycleEvent(t: 2 * ms, kind: .sceneWillEnterForeground, scene: "S1"),
                LifecycleEvent(t: 3 * ms, kind: .sceneDidBecomeActive, scene: "S1"),
                LifecycleEvent(t: 4 * ms, kind: .sceneWillResignActive, scene: "S1"),
                LifecycleEvent(t: 5 * ms, kind: .sceneDidEnterBackground, scene: "S1"),
                LifecycleEvent(t: 50 * ms, kind: .heartbeat),
                LifecycleEvent(t: 350 * ms, kind: .heartbeat),
                LifecycleEvent(t: 400 * ms, kind: .sceneWillEnterForeground, scene: "S1"),
            ]
            for event in events { analyzer.consume(event) }
            return analyzer.finish().suspensionCount
        }
        #expect(suspensions(header) == 1)
        var without = header
        without.heartbeatNanoseconds = nil
        #expect(suspensions(without) == 0)
    }

    /// The mirrored line is the one `Schemas/oslog-mapping.md` specifies, timestamped as `log` prints UTC.
    @Test func theMirroredLineIsTheOneImportReads() {
        let event = LifecycleEvent(
            t: 0, kind: .sceneDidEnterBackground, scene: "A B", dur: 1_500_000, task: 4,
            name: "say \"hi\"", phase: .background)
        #expect(
            lifetraceLogMessage(event)
                == "lifetrace ev=scene.didEnterBackground scene=\"A B\" dur=1500000ns task=4 name=\"say 'hi'\" phase=background"
        )
        #expect(lifetraceLogMessage(LifecycleEvent(t: 0, kind: .custom, label: "save")) == "lifetrace ev=custom.save")
        // 1763700000 s is 2025-11-21 04:40:00 UTC (Python's datetime); -1 ns is the last microsecond of 1969.
        #expect(StandardErrorMirror.utcTimestamp(1_763_700_000_123_456_789) == "2025-11-21 04:40:00.123456+0000")
        #expect(StandardErrorMirror.utcTimestamp(-1) == "1969-12-31 23:59:59.999999+0000")
        #expect(StandardErrorMirror.quoted("a\"b\\\n\u{1}") == "\"a\\\"b\\\\\\n\\u0001\"")
    }
}
