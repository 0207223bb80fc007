import Foundation
import LifetraceCore
import LifetraceTestSupport
import LifetraceZstd
import Testing

@testable import LifetraceFormat

/// An ``EventBlock`` holds events as plain records over one string table and gives them back unchanged.
@Suite struct EventBlockTests {
    static let events: [LifecycleEvent] = [
        LifecycleEvent(t: 0, kind: .processLaunch, reason: "user", pid: 412),
        LifecycleEvent(t: 10, kind: .sceneWillConnect, scene: "S1", dur: 3),
        LifecycleEvent(t: 20, kind: .swiftuiScenePhase, scene: "S1", phase: .active),
        LifecycleEvent(t: 30, kind: .taskBegin, task: -7, name: "upload"),
        LifecycleEvent(
            t: 40, kind: .custom, label: "save", scene: "S1",
            attrs: [
                Attribute("file", .string("S1")), Attribute("n", .int(-3)), Attribute("x", .double(0.5)),
                Attribute("ok", .bool(true)),
            ]),
        LifecycleEvent(t: 50, kind: .heartbeat, attrs: []),
        LifecycleEvent(t: 60, kind: .taskEnd, task: -7),
    ]

    @Test func eventsComeBackAsTheyWentIn() {
        var block = EventBlock()
        for event in Self.events { block.append(event) }
        #expect(block.count == Self.events.count)
        #expect((0..<block.count).map { block.event(at: $0) } == Self.events)
        #expect((0..<block.count).map { block.eventName(at: $0) } == Self.events.map(\.eventName))
    }

    @Test func eachStringIsStoredOnce() {
        var block = EventBlock()
        for event in Self.events { block.append(event) }
        // "S1" is a scene three times and an attribute value once.
        #expect(block.strings == ["user", "S1", "upload", "save", "file", "n", "x", "ok"])
        #expect(block.records[1].scene == block.records[4].scene)
        #expect(!block.records[0].hasScene && block.records[0].duration == nil && block.records[1].duration == 3)
    }

    @Test func removeAllStartsAFreshTable() {
        var block = EventBlock()
        for event in Self.events { block.append(event) }
        block.removeAll()
        block.append(LifecycleEvent(t: 5, kind: .sceneDidBecomeActive, scene: "S2"))
        #expect(block.strings == ["S2"] && block.count == 1)
        #expect(block.event(at: 0) == LifecycleEvent(t: 5, kind: .sceneDidBecomeActive, scene: "S2"))
    }

    /// Written to a `.lifetrace` in two frames and read back block by block, every event is as written,
    /// one block per frame.
    @Test func decodedBlocksHoldTheWrittenEvents() throws {
        let files = ScratchTraces()
        let path = files.directory.file("blocks.lifetrace")
        let (bytes, _) = try files.binary(header: nil, Self.events, frameSizes: [3])
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let reader = try TraceReader(path: path)
        var read: [LifecycleEvent] = []
        var sizes: [Int] = []
        try reader.forEachBlock { block in
            sizes.append(block.count)
            for row in 0..<block.count { read.append(block.event(at: row)) }
        }
        #expect(read == Self.events)
        #expect(sizes == [3, Self.events.count - 3])
    }
}
