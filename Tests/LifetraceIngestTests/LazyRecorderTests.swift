import LifetraceCore
import LifetraceFormat
import LifetraceIngest
import LifetraceRecorder
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// The recorder `record` and `import --live` open once and close from either the main flow or a signal's queue.
@Suite struct LazyRecorderTests {
    let directory = TemporaryDirectory()

    func recorder(_ name: String) throws -> Recorder {
        let writer = try BinaryTraceWriter(
            sink: try FileSink(path: directory.file(name)),
            header: TraceHeader(clock: .monotonic, app: "com.example.app"))
        return Recorder(writer: writer, configuration: RecorderConfiguration())
    }

    @Test func recordsNothingBeforeItIsOpened() {
        let lazy = LazyRecorder()
        #expect(!lazy.record(LifecycleEvent(t: 1, kind: .heartbeat)))
        #expect(lazy.droppedEventCount == 0)
    }

    @Test func opensOnceAndNeverOverAFinishedTrace() throws {
        let lazy = LazyRecorder()
        var made = 0
        try lazy.open {
            made += 1
            return try recorder("first.lifetrace")
        }
        #expect(lazy.record(LifecycleEvent(t: 1, kind: .heartbeat)))
        try lazy.close()
        try lazy.open {
            made += 1
            return try recorder("second.lifetrace")
        }
        #expect(made == 1)
        // A close after a close writes nothing more: the trace keeps its one event and its index.
        try lazy.close()
        let reader = try TraceReader(path: directory.file("first.lifetrace"))
        var times: [Int64] = []
        try reader.forEachEvent { times.append($0.t) }
        #expect(times == [1])
        #expect(reader.statistics.indexPresent)
    }

    @Test func anEventAfterTheCloseIsRefused() throws {
        let lazy = LazyRecorder()
        try lazy.open { try recorder("closed.lifetrace") }
        try lazy.close()
        #expect(!lazy.record(LifecycleEvent(t: 2, kind: .heartbeat)))
    }
}
