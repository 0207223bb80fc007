import LifetraceCore
import LifetraceFormat
import LifetraceIngest
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// Where `lifetrace import` writes: a trace opened with the header known at its first event, straight or through a
/// recorder (`--live`).
@Suite struct ImportSinkTests {
    let directory = TemporaryDirectory()
    let header = TraceHeader(clock: .wall, app: "com.example.app")
    let events = [
        LifecycleEvent(t: 1_000, kind: .processLaunch, reason: "user"),
        LifecycleEvent(t: 2_000, kind: .sceneWillConnect, scene: "S1"),
    ]

    @Test(arguments: [false, true])
    func writesEveryEventAfterTheHeaderOfTheFirst(live: Bool) throws {
        let sink = ImportSink(output: directory.file("run.lifetrace"), live: live)
        // The header the first event comes with is the trace's; a later one changes nothing.
        try sink.write(events[0], header: header)
        try sink.write(events[1], header: TraceHeader(clock: .wall, app: "com.example.other"))
        #expect(sink.events == 2)
        try sink.close(header: header)
        #expect(
            try directory.dump("run.lifetrace") == """
                {"lifetrace":1,"clock":"wall","app":"com.example.app"}
                {"t":1000,"ev":"process.launch","reason":"user"}
                {"t":2000,"ev":"scene.willConnect","scene":"S1"}

                """)
    }

    @Test func writesJSONLinesForAJSONLinesName() throws {
        let sink = ImportSink(output: directory.file("run.jsonl"), live: false)
        try sink.write(events[0], header: header)
        try sink.close(header: header)
        #expect(
            String(decoding: directory.read("run.jsonl"), as: UTF8.self) == """
                {"lifetrace":1,"clock":"wall","app":"com.example.app"}
                {"t":1000,"ev":"process.launch","reason":"user"}

                """)
    }

    @Test func aLiveTraceClosedBySignalKeepsItsEventsAndItsIndex() throws {
        let sink = ImportSink(output: directory.file("live.lifetrace"), live: true)
        try sink.write(events[0], header: header)
        try sink.closeRecorder()
        try sink.closeRecorder()
        let reader = try TraceReader(path: directory.file("live.lifetrace"))
        var count = 0
        try reader.forEachEvent { _ in count += 1 }
        #expect(count == 1)
        #expect(reader.statistics.indexPresent && reader.statistics.indexConsistent)
    }

    @Test func closedWithNoEventTheTraceHoldsTheHeaderAlone() throws {
        let sink = ImportSink(output: directory.file("empty.lifetrace"), live: false)
        try sink.close(header: header)
        #expect(sink.events == 0)
        #expect(
            try directory.dump("empty.lifetrace") == #"{"lifetrace":1,"clock":"wall","app":"com.example.app"}"# + "\n")
    }
}
