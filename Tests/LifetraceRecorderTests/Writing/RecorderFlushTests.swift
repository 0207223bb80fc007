import Foundation
import LifetraceCore
import LifetraceFormat
import LifetraceTestSupport
import Testing

@testable import LifetraceRecorder

/// What a flush writes: everything recorded before it returns, and, before the process may be suspended,
/// everything buffered, whatever span is still open.
@Suite struct RecorderFlushTests {
    let directory = TemporaryDirectory()

    /// A recorder of the file at `path` on time that moves only when the test moves it.
    func manualRecorder(_ path: String, _ configuration: RecorderConfiguration) throws -> Recorder {
        let writer = try BinaryTraceWriter(sink: try FileSink(path: path), header: TraceHeader(clock: .continuous))
        return Recorder(writer: writer, time: ManualTimeSource(), configuration: configuration)
    }

    /// An event stamped in the clock's tick the flush begins in is written by it: a coarse clock (a
    /// microsecond's, or a frozen one here) gives the event and the flush one time, and a process that exits
    /// after the flush must not leave the event behind.
    @Test func aFlushWritesAnEventStampedInItsOwnTick() throws {
        let path = directory.file("tick.lifetrace")
        let recorder = try manualRecorder(path, .init(flushInterval: .seconds(3600)))
        recorder.record(.appWillTerminate)
        try recorder.flush()
        #expect(try RecorderTraces.read(path).events.map(\.kind) == [.appWillTerminate])
        try recorder.close()
    }

    /// With a span hold, an ordinary flush leaves what follows an open span buffered; a flush before the process
    /// may be suspended writes it all, the span without its duration (``RecorderConfiguration/maxSpanHold``),
    /// whose return follows.
    @Test func aDurableFlushWritesPastAnOpenSpan() throws {
        let path = directory.file("held.lifetrace")
        let recorder = try manualRecorder(path, .init(flushInterval: .seconds(3600), maxSpanHold: .seconds(10)))
        let span = recorder.beginSpan(.sceneDidEnterBackground, scene: "S1")
        recorder.mark("saved")
        try recorder.flush()
        #expect(try RecorderTraces.read(path).events.isEmpty)
        #expect(recorder.flushDurably().wait(atMost: .seconds(10)))
        let written = try RecorderTraces.read(path).events
        #expect(written.map(\.eventName) == ["scene.didEnterBackground", "custom.saved"])
        #expect(written[0].dur == nil && written[0].attrs == [Attribute("unfinished", .bool(true))])
        span.end()
        try recorder.close()
        #expect(
            try RecorderTraces.read(path).events.map(\.eventName)
                == ["scene.didEnterBackground", "custom.saved", "handler.return"])
    }
}
