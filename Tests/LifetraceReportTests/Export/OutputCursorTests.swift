import LifetraceFormat
import Testing

@testable import LifetraceReport

/// The cursor's varints are protobuf's base-128 varints, however they are written.
@Suite struct OutputCursorTests {
    /// The bytes `write` puts through a cursor.
    private func bytes(_ write: (inout OutputCursor) -> Void) -> [UInt8] {
        var buffer = ByteWriter()
        buffer.write(atMost: 20, write)
        return buffer.withBytes { Array($0) }
    }

    /// Protobuf's own examples ("Encoding", Protocol Buffers documentation: 1 is `01`, 150 is `96 01`) and values
    /// worked out by hand, seven bits to a byte, lowest group first, the high bit on all but the last.
    @Test func aWideVarintIsTheVarintProtobufDocuments() {
        #expect(bytes { $0.wideVarint(1) } == [0x01])
        #expect(bytes { $0.wideVarint(150) } == [0x96, 0x01])
        #expect(bytes { $0.wideVarint(300) } == [0xAC, 0x02])
        #expect(bytes { $0.wideVarint(0) } == [0x00])
        #expect(bytes { $0.wideVarint(1 << 21) } == [0x80, 0x80, 0x80, 0x01])
        // 2^56 - 1: eight groups of seven ones; 2^56 takes the loop, nine bytes.
        #expect(bytes { $0.wideVarint(1 << 56 - 1) } == [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F])
        #expect(bytes { $0.wideVarint(1 << 56) } == [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01])
        #expect(bytes { $0.wideVarint(.max) } == [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])
    }

    @Test func aWideVarintWritesWhatTheByteLoopWritesAtEveryLength() {
        var values: [UInt64] = []
        for bits in 0..<64 {
            let top = UInt64(1) << bits
            values += [top, top &- 1, top | 0x55, top | (top >> 1) | 1]
        }
        for value in values {
            #expect(bytes { $0.wideVarint(value) } == bytes { $0.varint(value) }, "value \(value)")
            // Followed by a byte: the eight-byte store leaves what comes after the varint to later writes.
            #expect(
                bytes {
                    $0.wideVarint(value)
                    $0.put(0xEE)
                }
                    == bytes {
                        $0.varint(value)
                        $0.put(0xEE)
                    })
        }
    }

    /// Every length from 1 to 20 digits, at both of its ends, against the standard library's spelling.
    @Test func decimalsAreSpelledAsTheStandardLibrarySpellsThem() {
        var values: [Int64] = [0, 1, -1, .max, .min, .max - 1, .min + 1]
        var power: Int64 = 1
        for _ in 0..<19 {
            values += [power - 1, power, power + 1, -power, -(power - 1)]
            if power <= Int64.max / 10 { power *= 10 }
        }
        for value in values {
            #expect(bytes { $0.decimal(value) } == Array(String(value).utf8), "value \(value)")
        }
        var unsignedPower: UInt64 = 1
        for digits in 1...20 {
            #expect(OutputCursor.decimalDigits(unsignedPower) == digits)
            if digits > 1 { #expect(OutputCursor.decimalDigits(unsignedPower - 1) == digits - 1) }
            if digits < 20 { unsignedPower *= 10 }
        }
        #expect(OutputCursor.decimalDigits(.max) == 20)
    }
}
