import LifetraceCore
import LifetraceTestSupport
import Testing

@testable import LifetraceFormat

/// The counting walk (`EventBlockDecoder.tally`) counts what decoding would give and fails where decoding fails,
/// at the same byte with the same message.
@Suite struct EventBlockTallyTests {
    /// Eight events whose counts are worked out by hand: kinds launch 1, willConnect 2, didBecomeActive 2,
    /// custom 1, heartbeat 1, task.begin 1; scenes "A" and "B" (the task's name "upload" and the attribute value
    /// "C" are strings of the block but name no scene); from t=100 to t=100+0+10+5+20+1+4+60+900 = 1100.
    static let events: [LifecycleEvent] = [
        LifecycleEvent(t: 100, kind: .processLaunch, reason: "user", pid: 7),
        LifecycleEvent(t: 110, kind: .sceneWillConnect, scene: "A", dur: 3),
        LifecycleEvent(t: 115, kind: .sceneDidBecomeActive, scene: "A", dur: 2),
        LifecycleEvent(t: 135, kind: .sceneWillConnect, scene: "B"),
        LifecycleEvent(t: 136, kind: .taskBegin, task: 1, name: "upload"),
        LifecycleEvent(t: 140, kind: .custom, label: "save", attrs: [Attribute("where", .string("C"))]),
        LifecycleEvent(t: 200, kind: .sceneDidBecomeActive, scene: "B"),
        LifecycleEvent(t: 1100, kind: .heartbeat),
    ]

    static func content(_ events: [LifecycleEvent]) -> [UInt8] {
        var encoder = EventBlockEncoder()
        for event in events { encoder.append(event) }
        var content: [UInt8] = []
        encoder.finish(into: &content)
        return content
    }

    /// `read` of `content` with a decoder for a file of minor version `minor`, and what it returned or threw.
    static func reading<T>(
        _ content: [UInt8], minor: UInt8,
        _ read: (inout EventBlockDecoder, UnsafeRawBufferPointer) throws(DecodeFailure) -> T
    ) -> Result<T, DecodeFailure> {
        var decoder = EventBlockDecoder(fileMinorVersion: minor)
        return content.withUnsafeBytes { raw in Result { () throws(DecodeFailure) in try read(&decoder, raw) } }
    }

    static func tally(_ content: [UInt8], minor: UInt8 = FormatConstants.minorVersion)
        -> Result<(EventBlockDecoder.Summary, BlockTally), DecodeFailure>
    {
        reading(content, minor: minor) { (decoder, raw) throws(DecodeFailure) in
            var tally = BlockTally()
            return (try decoder.tally(raw, into: &tally), tally)
        }
    }

    static func decode(_ content: [UInt8], minor: UInt8 = FormatConstants.minorVersion)
        -> Result<(EventBlockDecoder.Summary, EventBlock), DecodeFailure>
    {
        reading(content, minor: minor) { (decoder, raw) throws(DecodeFailure) in
            var block = EventBlock()
            return (try decoder.decode(raw, into: &block), block)
        }
    }

    /// The scenes a tally marked.
    static func scenes(_ tally: BlockTally) -> Set<String> {
        Set(zip(tally.strings, tally.named).filter(\.1).map(\.0))
    }

    @Test func countsAHandWrittenTraceByKindAndScene() throws {
        let (summary, tally) = try Self.tally(Self.content(Self.events)).get()
        let expected: [EventKind: Int] = [
            .processLaunch: 1, .sceneWillConnect: 2, .sceneDidBecomeActive: 2, .taskBegin: 1, .custom: 1, .heartbeat: 1,
        ]
        for kind in EventKind.allCases {
            #expect(tally.counts[Int(kind.rawValue)] == expected[kind, default: 0], "\(kind.name)")
        }
        #expect(tally.counts.reduce(0, +) == 8)
        #expect(Self.scenes(tally) == ["A", "B"])
        #expect(summary.firstT == 100 && summary.lastT == 1100)
        #expect(summary.eventCount == 8 && tally.eventCount == 8 && summary.skippedUnknown == 0)
    }

    @Test func countsTheSpecifiedOneEventBlock() throws {
        let (summary, tally) = try Self.tally(EventBlockLayoutTests.oneEventBlock, minor: 0).get()
        #expect(tally.counts[Int(EventKind.sceneDidBecomeActive.rawValue)] == 1 && tally.counts.reduce(0, +) == 1)
        #expect(Self.scenes(tally) == ["S1"])
        #expect(summary.firstT == 300 && summary.lastT == 300 && summary.eventCount == 1)
    }

    /// Times near the signed 64-bit bound are checked event by event, as decoding checks them: a handler that
    /// ends past the range is the same error at the same byte; a last timestamp or a handler's end of exactly
    /// `Int64.max` is in range for both.
    @Test(
        arguments: [
            (
                [
                    LifecycleEvent(t: 5, kind: .heartbeat),
                    LifecycleEvent(t: Int64.max - 10, kind: .sceneWillConnect, scene: "A", dur: 20),
                ],
                "duration of event 1 ends past the signed 64-bit range"
            ),
            (
                [
                    LifecycleEvent(t: Int64.max - 1_000, kind: .heartbeat),
                    LifecycleEvent(t: Int64.max, kind: .heartbeat),
                ], nil
            ),
            ([LifecycleEvent(t: Int64.max - 3, kind: .sceneWillConnect, scene: "A", dur: 3)], nil),
        ] as [([LifecycleEvent], String?)])
    func timesNearTheBoundAreCheckedPerEvent(events: [LifecycleEvent], message: String?) throws {
        let content = Self.content(events)
        let decoded = Self.decode(content)
        let tallied = Self.tally(content)
        switch (decoded, tallied) {
        case let (.success(d), .success(t)):
            #expect(message == nil)
            #expect(d.0.lastT == t.0.lastT && t.0.lastT == events.last!.t && d.0.eventCount == t.0.eventCount)
        case let (.failure(d), .failure(t)):
            #expect(d.message == message)
            #expect(d.offset == t.offset && d.message == t.message)
        default:
            Issue.record("decode \(decoded), tally \(tallied)")
        }
    }

    /// Every byte of a block of random events (every field, attributes, labels) changed several ways: the
    /// counting walk fails where decoding fails, with the same message at the same byte, and otherwise counts
    /// what the decoded records hold. Kinds newer than the library are skipped alike in a file of a newer minor
    /// version.
    @Test(arguments: [FormatConstants.minorVersion, FormatConstants.minorVersion + 1])
    func failsWhereDecodingFailsAndCountsWhatItDecodes(minor: UInt8) throws {
        var rng = SplitMix64(seed: 26)
        let original = Self.content(RandomTrace.events(count: 60, using: &rng))
        var compared = 0
        for position in original.indices {
            for change in [UInt8(0x01), 0x80, 0xFF] {
                var content = original
                content[position] = change == 0xFF ? 0xFF : content[position] ^ change
                let decoded = Self.decode(content, minor: minor)
                let tallied = Self.tally(content, minor: minor)
                switch (decoded, tallied) {
                case let (.failure(d), .failure(t)):
                    #expect(d.offset == t.offset && d.message == t.message, "byte \(position)")
                case let (.success(d), .success(t)):
                    #expect(d.0.firstT == t.0.firstT && d.0.lastT == t.0.lastT, "byte \(position)")
                    #expect(d.0.eventCount == t.0.eventCount && d.0.skippedUnknown == t.0.skippedUnknown)
                    var counts = [Int](repeating: 0, count: 256)
                    var scenes = Set<String>()
                    for record in d.1.records {
                        counts[Int(record.tag)] += 1
                        if let scene = d.1.string(record.scene) { scenes.insert(scene) }
                    }
                    #expect(counts == t.1.counts, "byte \(position)")
                    #expect(scenes == Self.scenes(t.1), "byte \(position)")
                default:
                    Issue.record("byte \(position): decode \(decoded), tally \(tallied)")
                }
                compared += 1
            }
        }
        #expect(compared == original.count * 3)
    }
}
