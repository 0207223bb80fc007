import LifetraceCore
import LifetraceFormat
import Testing

/// Writers refuse an event no reader would take back, naming it, and go on with the next: a repeated attribute
/// key (a binary block's reader and a JSON Lines reader both refuse one), or an event larger than a frame holds.
@Suite struct WriterLimitTests {
    static let refused: [(LifecycleEvent, String)] = [
        (
            LifecycleEvent(t: 1, kind: .custom, label: "x", attrs: [Attribute("k", .int(1)), Attribute("k", .int(2))]),
            "event 1: attribute \"k\" appears twice"
        )
    ]

    /// A binary frame is read up to 16 MiB: an event of more than half of that is refused, naming its size.
    @Test func aBinaryWriterRefusesAnEventNoFrameHolds() throws {
        let writer = try BinaryTraceWriter(sink: MemorySink(), header: TraceHeader(), options: .init(codec: .stored))
        let limit = BinaryTraceWriter.maximumEventBytes
        // Label and key, 1 byte each, and 16 for the attribute: the value takes the rest, then one byte more.
        let fits = String(repeating: "x", count: limit - 18)
        try writer.append(LifecycleEvent(t: 0, kind: .custom, label: "a", attrs: [Attribute("k", .string(fits))]))
        let over = String(repeating: "x", count: limit - 17)
        do {
            try writer.append(LifecycleEvent(t: 1, kind: .custom, label: "a", attrs: [Attribute("k", .string(over))]))
            Issue.record("an event of \(limit + 1) bytes was taken")
        } catch {
            #expect(
                error.message
                    == "event 1: \(limit + 1) bytes of text and attributes, more than the \(limit) one event of a frame may hold"
            )
        }
        try writer.close()
        #expect(writer.writtenEventCount == 1)
    }

    @Test(arguments: [false, true])
    func aWriterRefusesWhatNoReaderTakesAndGoesOn(jsonLines: Bool) throws {
        for (event, message) in Self.refused {
            let sink = MemorySink()
            let writer: any EventWriter =
                jsonLines
                ? JSONLinesWriter(sink: sink, header: TraceHeader())
                : try BinaryTraceWriter(sink: sink, header: TraceHeader(), options: .init(codec: .stored))
            try writer.append(LifecycleEvent(t: 0, kind: .heartbeat))
            #expect(throws: TraceError.self) { try writer.append(event) }
            do { try writer.append(event) } catch { #expect(error.message == message) }
            try writer.append(LifecycleEvent(t: 2, kind: .heartbeat))
            try writer.close()
            #expect(writer.writtenEventCount == 2)
        }
    }
}
