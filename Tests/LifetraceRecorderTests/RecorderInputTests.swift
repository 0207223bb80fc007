import Foundation
import LifetraceCore
import LifetraceFormat
import LifetraceTestSupport
import Testing

@testable import LifetraceRecorder

/// What a recorder does with input no trace could hold as given: it never writes a frame a reader refuses.
@Suite struct RecorderInputTests {
    let directory = TemporaryDirectory()

    /// A key given twice keeps the value given last, as a dictionary's assignments would; before, the frame that
    /// held the event (and every event flushed with it) was unreadable.
    @Test func aRepeatedAttributeKeyKeepsTheLastValue() throws {
        let path = directory.file("repeated.lifetrace")
        let recorder = try Recorder(file: URL(fileURLWithPath: path))
        recorder.record(.heartbeat)
        recorder.mark(
            "upload",
            attrs: [Attribute("status", .int(200)), Attribute("bytes", .int(5)), Attribute("status", .string("ok"))])
        recorder.record(.heartbeat)
        try recorder.close()
        let events = try RecorderTraces.read(path).events
        let upload = try #require(events.first { $0.label == "upload" })
        #expect(upload.attrs == [Attribute("status", .string("ok")), Attribute("bytes", .int(5))])
        #expect(events.filter { $0.kind == .heartbeat }.count == 2)
        #expect(recorder.droppedEventCount == 0)
    }

    /// An event of more text than one event may hold is dropped and counted (a `recorder.dropped` event says so);
    /// the events around it are written and read back.
    @Test func anEventTooLargeToReadBackIsDroppedAndCounted() throws {
        let path = directory.file("large.lifetrace")
        let recorder = try Recorder(file: URL(fileURLWithPath: path))
        recorder.mark("before")
        let huge = String(repeating: "x", count: RecorderState.maximumTextBytes + 1)
        recorder.mark("response", attrs: [Attribute("body", .string(huge))])
        recorder.mark(huge)
        recorder.mark("after")
        try recorder.close()
        #expect(recorder.droppedEventCount == 2)
        let events = try RecorderTraces.read(path).events
        #expect(events.compactMap(\.label) == ["before", "after"])
        // Each drop is said by the next event recorded: one `recorder.dropped` before the second large mark, one before "after".
        let said = events.filter { $0.kind == .recorderDropped }.compactMap {
            $0.attrs?.first { $0.key == Attribute.Key.dropped }?.value
        }
        #expect(said == [.int(1), .int(1)])
    }

    /// A drop into an empty buffer is written by the timer, with nothing else recorded: not left for the close.
    @Test func aDropIsWrittenWithoutAnotherEvent() throws {
        let time = ManualTimeSource()
        let path = directory.file("timer.lifetrace")
        let sink = try #require(try FileSink.createNew(path: path))
        let recorder = Recorder(
            sink: sink, header: TraceHeader(clock: .continuous), time: time,
            configuration: .init(flushInterval: .milliseconds(100)), probes: .system)
        recorder.mark(String(repeating: "x", count: RecorderState.maximumTextBytes + 1))
        #expect(recorder.isTimerArmed)
        for _ in 0..<3 {
            time.advance(by: 50_000_000)
            recorder.waitForWriter()
        }
        let events = try RecorderTraces.read(path).events
        #expect(events.map(\.kind) == [.recorderDropped])
        #expect(!recorder.isTimerArmed)
        try recorder.close()
    }

    /// The string table starts again past a few hundred strings, keeping those of the events still buffered: a
    /// session of ever new labels does not hold every one it recorded.
    @Test func theStringTableKeepsOnlyWhatIsBuffered() {
        var state = RecorderState(capacity: 4096)
        for round in 0..<10 {
            for index in 0..<1000 {
                _ = state.append(.custom, at: Int64(round * 1000 + index), label: "job-\(round)-\(index)")
            }
            let batch = state.takeWritable(now: Int64(round * 1000 + 999), maxHold: 0, force: false)
            // Every event of the batch names its own label in the batch's table.
            #expect(
                batch.events.enumerated().allSatisfy { offset, event in
                    event.event(strings: batch.strings, attrs: nil).label == "job-\(round)-\(offset)"
                })
        }
        #expect(state.strings.values.count <= RecorderState.keptStrings)
    }

    /// Held behind an open span, buffered events keep their strings when the table starts again.
    @Test func eventsHeldBehindASpanKeepTheirStrings() {
        var state = RecorderState(capacity: 4096)
        let span = state.append(.sceneDidEnterBackground, at: 0, scene: "held-scene")
        state.openSpans.append(.init(sequence: span, start: 0))
        for index in 0..<600 {
            _ = state.append(.custom, at: Int64(1 + index), label: "label-\(index)", scene: "scene-\(index % 7)")
        }
        let none = state.takeWritable(now: 10, maxHold: 1_000, force: false)
        #expect(none.events.isEmpty)
        _ = state.append(.custom, at: 700, label: "later")
        let all = state.takeWritable(now: 2_000, maxHold: 1_000, force: true)
        let events = all.events.map { $0.event(strings: all.strings, attrs: nil) }
        #expect(events.count == 602)
        #expect(events[0].scene == "held-scene")
        #expect(events[1].label == "label-0" && events[1].scene == "scene-0")
        #expect(events[600].label == "label-599" && events[600].scene == "scene-4")
        #expect(events[601].label == "later")
    }
}
