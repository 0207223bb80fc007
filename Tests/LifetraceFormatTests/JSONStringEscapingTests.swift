import Testing

@testable import LifetraceFormat

/// JSON strings as RFC 8259 ("The JavaScript Object Notation (JSON) Data Interchange Format", section 7) writes
/// them: a quotation mark, a backslash and the control characters U+0000 to U+001F escaped, everything else as is.
@Suite struct JSONStringEscapingTests {
    /// The escape of one byte, by the RFC's table: the two-character escapes where it has one, `\u00XX` for the
    /// other control characters (lowercase hex, as lifetrace writes them), the byte itself otherwise.
    private static func escaped(_ byte: UInt8) -> [UInt8] {
        switch byte {
        case 0x22: return Array("\\\"".utf8)
        case 0x5C: return Array("\\\\".utf8)
        case 0x0A: return Array("\\n".utf8)
        case 0x0D: return Array("\\r".utf8)
        case 0x09: return Array("\\t".utf8)
        case 0x08: return Array("\\b".utf8)
        case 0x0C: return Array("\\f".utf8)
        case 0..<0x20:
            let hex = Array("0123456789abcdef".utf8)
            return Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
        default: return [byte]
        }
    }

    private static func json(_ string: String) -> [UInt8] {
        var buffer = ByteWriter()
        buffer.appendJSONString(string)
        return buffer.withBytes { Array($0) }
    }

    /// Every byte that needs escaping, and its neighbours that do not, at every position of strings longer than the
    /// eight bytes passed over at once, so that each falls in a word, at its edges and in the tail.
    @Test func everyEscapedByteIsEscapedWhereverItIs() {
        // Bytes of valid UTF-8 only (a String holds no other): the ASCII neighbours of the escaped bytes, and DEL.
        let specials: [UInt8] = Array(0..<0x20) + [0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F]
        for special in specials {
            for length in [1, 7, 8, 9, 16, 17, 23] {
                for position in 0..<length {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[position] = special
                    let string = String(decoding: bytes, as: UTF8.self)
                    let expected = [0x22] + Array(string.utf8).flatMap(Self.escaped) + [0x22]
                    #expect(Self.json(string) == expected, "byte \(special) at \(position) of \(length)")
                }
            }
        }
    }

    @Test func plainAndMultibyteTextIsCopiedAsIs() {
        for text in [
            "", "S1", "scene-0123456789abcdef", "Zürich — “quoted” 🙂 text of some length",
            String(repeating: "x", count: 1000),
        ] {
            #expect(Self.json(text) == [0x22] + Array(text.utf8) + [0x22])
        }
        #expect(Self.json("a\"b\\c\nd\u{1}e") == Array("\"a\\\"b\\\\c\\nd\\u0001e\"".utf8))
    }

    /// The RFC's rule for one byte: a control character, a quotation mark or a backslash.
    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C
    }

    /// Every byte value at every position of a word of other bytes, those others being each byte value in turn:
    /// the word test says yes exactly when a byte of the word needs escaping.
    @Test func theWordTestSaysYesExactlyForAWordWithAByteToEscape() {
        for filler in 0...UInt8.max {
            let base = UInt64(filler) &* 0x0101_0101_0101_0101
            for byte in 0...UInt8.max {
                for position in 0..<8 {
                    let shift = 8 * UInt64(position)
                    let word = base & ~(UInt64(0xFF) << shift) | UInt64(byte) << shift
                    let expected = Self.needsEscaping(filler) || Self.needsEscaping(byte)
                    if ByteWriter.mayNeedEscaping(word) != expected {
                        Issue.record("byte \(byte) at \(position) among \(filler)s: expected \(expected)")
                    }
                }
            }
        }
        #expect(!ByteWriter.mayNeedEscaping(0xFFFE_8081_7F5D_5B23))
    }
}
