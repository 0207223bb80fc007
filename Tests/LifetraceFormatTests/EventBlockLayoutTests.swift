import LifetraceCore
import Testing

@testable import LifetraceFormat

/// The byte layout of blocks and frames, worked out by hand from `Schemas/lifetrace-format.md`.
@Suite struct EventBlockLayoutTests {
    /// `{"t":300,"ev":"scene.didBecomeActive","scene":"S1","dur":5}` alone in a block.
    static let oneEventBlock: [UInt8] = [
        0x01,  // block type
        0xAC, 0x02,  // first_t = 300
        0x01,  // N = 1
        0x01, 0x02, 0x53, 0x31,  // S = 1: "S1"
        0x01,  // presence_size
        0x01,  // M = 1 event with dur
        0, 0, 0, 0, 0, 0, 0, 0,  // delta planes: delta 0 has length 0
        1, 0, 0, 0, 0, 0, 0, 0,  // dur planes: 5 has one byte
        0x01,  // fields_size
        0x12,  // kind column: tag 18, scene.didBecomeActive
        0x03,  // presence: scene (bit 0) | dur (bit 1)
        0x00,  // delta lengths
        0x01, 0x05,  // dur lengths, dur plane 0
        0x00,  // field column: scene = string 0
    ]

    @Test func encoderWritesTheSpecifiedBytes() {
        var encoder = EventBlockEncoder()
        encoder.append(LifecycleEvent(t: 300, kind: .sceneDidBecomeActive, scene: "S1", dur: 5))
        var content: [UInt8] = []
        encoder.finish(into: &content)
        #expect(content == Self.oneEventBlock)
    }

    @Test func decoderReadsTheSpecifiedBytes() throws {
        var decoder = EventBlockDecoder(fileMinorVersion: 0)
        var block = EventBlock()
        let summary = try Self.oneEventBlock.withUnsafeBytes { raw in
            try decoder.decode(raw, into: &block)
        }
        #expect(block.count == 1)
        #expect(block.strings == ["S1"])
        #expect(block.records.first?.scene == 0)
        #expect(block.event(at: 0) == LifecycleEvent(t: 300, kind: .sceneDidBecomeActive, scene: "S1", dur: 5))
        #expect(summary.firstT == 300 && summary.lastT == 300 && summary.eventCount == 1)
    }

    @Test func headerFrameWithoutMetadataIsSixteenBytes() {
        #expect(
            HeaderFrame.encode(nil) == [
                0x50, 0x2A, 0x4D, 0x18,  // skippable magic 0x184D2A50
                0x08, 0x00, 0x00, 0x00,  // payload size 8
                0x4C, 0x54, 0x52, 0x43,  // "LTRC"
                0x01, 0x03,  // version 1.3
                0x00, 0x00,  // flags
            ])
    }

    @Test func indexFrameListsOffsetsTimesAndCounts() {
        let frame = IndexFrame.encode([IndexEntry(offset: 16, firstT: 300, eventCount: 2)])
        #expect(
            frame == [
                0x51, 0x2A, 0x4D, 0x18, 0x09, 0x00, 0x00, 0x00, 0x4C, 0x54, 0x49, 0x58, 0x01, 0x10, 0xAC, 0x02, 0x02,
            ])
    }

    /// A block with an extra byte after its columns, a string index past the table, and a phase of 3.
    @Test(arguments: [
        (oneEventBlock + [0x00], "1 bytes after the last column"),
        (patched(at: 32, to: 0x01), "string index 1 out of range (1 string)"),
        (patched(at: 27, to: 0x7E), "unknown event kind tag 126"),
    ])
    func damagedBlocksAreRejectedWithAReason(block: [UInt8], message: String) {
        var decoder = EventBlockDecoder(fileMinorVersion: 0)
        var decoded = EventBlock()
        #expect {
            try block.withUnsafeBytes { raw in _ = try decoder.decode(raw, into: &decoded) }
        } throws: { error in
            (error as? DecodeFailure)?.message == message
        }
    }

    static func patched(at index: Int, to value: UInt8) -> [UInt8] {
        var block = oneEventBlock
        block[index] = value
        return block
    }
}
