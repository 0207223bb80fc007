@testable import LifetraceFormat
import Testing

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
        case 0 ..< 0x20:
            let hex = Array("0123456789abcdef".utf8)
            return Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
        default: return [byte]
        }
    }

    private static func json(_ string: String) -> [UInt8] {
        var buffer = ByteBuffer()
        buffer.appendJSONString(string)
        return buffer.withBytes { Array($0) }
    }

    /// Every byte that needs escaping, and its neighbours that do not, at every position of strings longer than the
    /// eight bytes passed over at once, so that each falls in a word, at its edges and in the tail.
    @Test func everyEscapedByteIsEscapedWhereverItIs() {
        let specials: [UInt8] = Array(0 ..< 0x20) + [0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F, 0x80]
        for special in specials {
            for length in [1, 7, 8, 9, 16, 17, 23] {
                for position in 0 ..< length {
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
        for text in ["", "S1", "scene-0123456789abcdef", "Zürich — “quoted” 🙂 text of some length", String(repeating: "x", count: 1000)] {
            #expect(Self.json(text) == [0x22] + Array(text.utf8) + [0x22])
        }
        #expect(Self.json("a\"b\\c\nd\u{1}e") == Array("\"a\\\"b\\\\c\\nd\\u0001e\"".utf8))
    }

    @Test func theWordTestSaysYesForEveryWordWithAByteToEscape() {
        for special: UInt8 in Array(0 ..< 0x20) + [0x22, 0x5C] {
            for position in 0 ..< 8 {
                var word = UInt64(0x6161_6161_6161_6161) // "aaaaaaaa"
                word &= ~(UInt64(0xFF) << (8 * UInt64(position)))
                word |= UInt64(special) << (8 * UInt64(position))
                #expect(ByteBuffer.mayNeedEscaping(word))
            }
        }
        #expect(!ByteBuffer.mayNeedEscaping(0x6161_6161_6161_6161))
        #expect(!ByteBuffer.mayNeedEscaping(0xFFFE_8081_7F5D_5B23))
    }
}
