import LifetraceCore
import LifetraceFormat
import LifetraceIngest
import LifetraceRecorder
import LifetraceTestSupport
import Testing

/// `lifetrace record`'s session in process: lines decoded and recorded, others passed through, rejections counted,
/// and the one line it ends with.
@Suite struct RecordSessionTests {
    let directory = TemporaryDirectory()

    func session(
        _ name: String, app: String? = nil, strict: Bool = false,
        completeHeader: @escaping @Sendable (TraceHeader) -> TraceHeader = { $0 }
    ) throws -> RecordSession {
        RecordSession(
            output: directory.file(name), sink: try FileSink(path: directory.file(name)), app: app,
            strict: strict, configuration: RecorderConfiguration(), completeHeader: completeHeader)
    }

    @Test func recordsLifecycleLinesAndPassesOtherLinesThrough() throws {
        let session = try session("run.lifetrace")
        let passed = try session.take(
            lines: """
                {"lifetrace":1,"app":"com.example.ui-tests"}
                Test Suite 'All tests' started
                {"t":0,"ev":"process.launch","reason":"user"}
                {"t":5000,"ev":"scene.willConnect","scene":"S1"}
                Test Case passed

                """)
        #expect(passed == ["Test Suite 'All tests' started", "Test Case passed"])
        let closeError = session.closeReportingError()
        #expect(closeError == nil)
        let summary = session.summary(closeError: closeError)
        #expect(summary == .complete("\(directory.file("run.lifetrace")): recorded 2 events"))
        #expect(
            try directory.dump("run.lifetrace") == """
                {"lifetrace":1,"app":"com.example.ui-tests"}
                {"t":0,"ev":"process.launch","reason":"user"}
                {"t":5000,"ev":"scene.willConnect","scene":"S1"}

                """)
    }

    /// A test runner prints before the app does: the app's header still heads the trace.
    @Test func theHeaderAfterOtherLinesIsTheTracesHeader() throws {
        let session = try session("late.lifetrace", app: "com.example.other")
        let passed = try session.take(
            lines: """
                Test Suite 'All tests' started

                {"lifetrace":1,"app":"com.example.ui-tests","scene_manifest":true}
                {"t":0,"ev":"process.launch","reason":"user"}

                """)
        #expect(passed == ["Test Suite 'All tests' started", ""])
        try session.close()
        #expect(session.summary(closeError: nil) == .complete("\(directory.file("late.lifetrace")): recorded 1 event"))
        #expect(
            try directory.dump("late.lifetrace") == """
                {"lifetrace":1,"app":"com.example.ui-tests","scene_manifest":true}
                {"t":0,"ev":"process.launch","reason":"user"}

                """)
    }

    @Test func aMalformedLifecycleLineIsCountedWithTheFirstOnesError() throws {
        let session = try session("bad.lifetrace")
        _ = try session.take(
            lines: """
                {"t":1,"ev":"heartbeat"}
                {"t":2,"ev":"scene.didBecomeActive"}
                {"t":3,"ev":"heartbeat"}
                {"t":4,"ev":"no.such.event"}

                """)
        try session.close()
        #expect(
            session.summary(closeError: nil)
                == .incomplete(
                    "-:2: scene.didBecomeActive needs \"scene\" (2 lines rejected in all); "
                        + "\(directory.file("bad.lifetrace")): recorded 2 events"))
    }

    @Test func strictRejectsOtherLinesByTheirLineNumber() throws {
        let session = try session("strict.lifetrace", strict: true)
        let passed = try session.take(
            lines: """
                {"t":1,"ev":"heartbeat"}
                hello

                {"t":2,"ev":"heartbeat"}

                """)
        #expect(passed.isEmpty)
        try session.close()
        // The blank line is neither passed through nor rejected.
        #expect(
            session.summary(closeError: nil)
                == .incomplete(
                    "-:2: not a lifetrace JSON line (1 line rejected in all); \(directory.file("strict.lifetrace")): recorded 2 events"
                ))
    }

    @Test func aTimeBeforeTheLastOnesIsRaisedAndCounted() throws {
        let session = try session("order.lifetrace")
        _ = try session.take(lines: [10, 30, 20].map { "{\"t\":\($0),\"ev\":\"heartbeat\"}\n" }.joined())
        try session.close()
        #expect(
            session.summary(closeError: nil)
                == .complete(
                    "\(directory.file("order.lifetrace")): recorded 3 events (1 whose t was before the last one's, raised to it)"
                ))
        #expect(
            try directory.dump("order.lifetrace").split(separator: "\n").dropFirst() == [
                #"{"t":10,"ev":"heartbeat"}"#, #"{"t":30,"ev":"heartbeat"}"#, #"{"t":30,"ev":"heartbeat"}"#,
            ])
    }

    @Test func withoutAHeaderLineTheTraceHasTheAppAndTheRunsMetadata() throws {
        let session = try session("plain.lifetrace", app: "com.example.app") { header in
            var header = header
            header[metadata: "build"] = .string("417")
            return header
        }
        _ = try session.take(lines: "{\"t\":1,\"ev\":\"heartbeat\"}\n")
        try session.close()
        let header = try #require(try directory.dump("plain.lifetrace").split(separator: "\n").first)
        #expect(header == #"{"lifetrace":1,"clock":"monotonic","app":"com.example.app","build":"417"}"#)
    }

    @Test func closingTwiceAndWithNoLineLeavesOneEmptyTrace() throws {
        let session = try session("empty.lifetrace", app: "com.example.app")
        try session.close()
        try session.close()
        #expect(
            session.summary(closeError: nil) == .complete("\(directory.file("empty.lifetrace")): recorded 0 events"))
        #expect(
            try directory.dump("empty.lifetrace") == #"{"lifetrace":1,"clock":"monotonic","app":"com.example.app"}"#
                + "\n")
    }

    @Test func anErrorClosingTheTraceIsPartOfTheSummary() throws {
        let session = try session("closed.lifetrace")
        let failure = TraceError(.io, file: directory.file("closed.lifetrace"), at: .file, "cannot write: disk full")
        let summary = session.summary(closeError: failure)
        #expect(
            summary == .incomplete("\(failure.description); \(directory.file("closed.lifetrace")): recorded 0 events"))
    }
}
