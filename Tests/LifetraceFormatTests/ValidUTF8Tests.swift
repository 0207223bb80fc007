import Testing

@testable import LifetraceFormat

/// UTF-8 is validated as the Unicode Standard (chapter 3, table 3-7) defines well-formed sequences.
@Suite struct ValidUTF8Tests {
    @Test(
        arguments: [
            ([UInt8](), ""),
            (Array("background".utf8), "background"),
            ([0x63, 0x61, 0x66, 0xC3, 0xA9], "café"),
            ([0xE2, 0x82, 0xAC], "€"),
            ([0xF0, 0x9F, 0x98, 0x80], "😀"),
            ([0xF4, 0x8F, 0xBF, 0xBF], "\u{10FFFF}"),
            ([0xED, 0x9F, 0xBF], "\u{D7FF}"),
        ] as [([UInt8], String)])
    func wellFormedBytesAreTheirString(bytes: [UInt8], text: String) {
        #expect(String(validUTF8: bytes) == text)
        #expect(String(validUTF8: bytes[...]) == text)
    }

    @Test(
        arguments: [
            [0x80],  // a continuation byte alone
            [0xC0, 0x80],  // an overlong NUL
            [0xC1, 0xBF],  // an overlong U+007F
            [0xE0, 0x80, 0xAF],  // an overlong "/"
            [0xED, 0xA0, 0x80],  // the surrogate U+D800
            [0xF4, 0x90, 0x80, 0x80],  // U+110000, past the last code point
            [0xF5, 0x80, 0x80, 0x80],  // a lead byte no sequence has
            [0xE2, 0x82],  // "€" cut short
            [0x61, 0xFF, 0x62],  // 0xFF is never UTF-8
            [0xF8, 0x88, 0x80, 0x80, 0x80],  // the five-byte form of U+200000, which UTF-8 no longer has
            [0xFC, 0x84, 0x80, 0x80, 0x80, 0x80],  // the six-byte form
            [0x61, 0xF0, 0x9F, 0x98],  // "😀" cut short at the end
            [0x61, 0xC3],  // a lead byte alone at the end
        ] as [[UInt8]])
    func illFormedBytesAreNoString(bytes: [UInt8]) {
        #expect(String(validUTF8: bytes) == nil)
    }

    /// ASCII is recognised eight bytes at a time, then byte by byte: a byte at or above 0x80 in either part, at
    /// any position of a 19-byte string (two words and three bytes), sends it to the full check.
    @Test(arguments: 0..<19)
    func aByteAbove0x7FIsSeenWhereverItStands(position: Int) {
        var text = [UInt8](repeating: UInt8(ascii: "a"), count: 19)
        text[position] = 0xFF
        #expect(String(validUTF8: text) == nil)
        text[position] = 0x7F
        #expect(
            String(validUTF8: text) == String(repeating: "a", count: position) + "\u{7F}"
                + String(repeating: "a", count: 18 - position))
        let accented = Array(text[..<position]) + [0xC3, 0xA9] + Array(text[(position + 1)...])
        #expect(
            String(validUTF8: accented) == String(repeating: "a", count: position) + "é"
                + String(repeating: "a", count: 18 - position))
    }
}
