import LifetraceCore
import Testing

/// Names kept bounded: short ones as they are, long ones cut at a scalar boundary with a hash of the whole.
@Suite struct KeptNameTests {
    @Test func aShortNameIsKeptAsItIs() {
        let name = String(repeating: "é", count: 128)  // 256 bytes
        #expect(KeptName.bounded(name) == name)
        #expect(KeptName.bounded("") == "")
    }

    @Test func aLongNameIsCutWithAHashAndTwoStayTwo() {
        // 300 bytes: a, then 299 times b; FNV-1a 64 of those bytes, computed here byte by byte.
        let first = "a" + String(repeating: "b", count: 299)
        let second = "c" + String(repeating: "b", count: 299)
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in first.utf8 { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
        let hex = String(hash, radix: 16)
        let expected =
            "a" + String(repeating: "b", count: 236) + "…" + String(repeating: "0", count: 16 - hex.count) + hex
        #expect(KeptName.bounded(first) == expected)
        #expect(KeptName.bounded(first).utf8.count == 256)
        #expect(KeptName.bounded(first) != KeptName.bounded(second))
        // A cut inside a two-byte scalar moves back before it: whole scalars only.
        // "xy" and 235 bytes end inside the 118th é.
        let accented = "xy" + String(repeating: "é", count: 200)
        let bounded = KeptName.bounded(accented)
        #expect(bounded.hasPrefix("xy" + String(repeating: "é", count: 117) + "…"))
        #expect(bounded.utf8.count == 2 + 234 + 3 + 16)
    }

    /// What findings and reports keep of a text: 256 bytes at most, cut before a scalar the limit splits, and `…`.
    @Test func aLongTextIsCutAtAScalarBoundary() {
        #expect(KeptName.cut("short") == "short")
        let exact = String(repeating: "é", count: 128)  // 256 bytes: kept whole
        #expect(KeptName.cut(exact) == exact)
        #expect(KeptName.cut(String(repeating: "é", count: 200)) == String(repeating: "é", count: 128) + "…")
        // "a" and 127 é are 255 bytes; the 256th is the first of the 128th é, which goes.
        #expect(
            KeptName.cut("a" + String(repeating: "é", count: 200)) == "a" + String(repeating: "é", count: 127) + "…")
    }

    @Test(arguments: [0, 1, 7, 8, 9, 15, 16, 17, 31])
    func sameBytesComparesEveryByteAcrossTheEightByteWords(length: Int) {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        bytes.withUnsafeBufferPointer { a in
            let copy = Array(bytes)
            copy.withUnsafeBufferPointer { b in #expect(KeptName.sameBytes(a, b)) }
            // One byte changed, at each position in turn: the first, those of a whole word, those of the tail.
            for position in 0..<length {
                var changed = bytes
                changed[position] ^= 0x40
                changed.withUnsafeBufferPointer { b in #expect(!KeptName.sameBytes(a, b), "byte \(position)") }
            }
            // A prefix or a longer run is not the same bytes.
            let longer = bytes + [0]
            longer.withUnsafeBufferPointer { b in #expect(!KeptName.sameBytes(a, b)) }
            if length > 0 {
                bytes.dropLast().withUnsafeBufferPointer { b in #expect(!KeptName.sameBytes(a, b)) }
            }
        }
    }
}
