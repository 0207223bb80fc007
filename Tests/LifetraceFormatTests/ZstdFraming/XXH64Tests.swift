import Testing

@testable import LifetraceFormat

/// XXH64 against values computed by the reference implementation (Python's `xxhash` package, which wraps
/// the C library) over the same bytes: byte `i` of the input is `(31 i + 7) mod 256`.
@Suite struct XXH64Tests {
    static let input: [UInt8] = (0..<1000).map { UInt8((($0 * 31) + 7) & 0xFF) }

    /// Lengths that take every path: empty, the 1-, 4- and 8-byte tails, exactly one and several 32-byte stripes.
    @Test(arguments: [
        (0, 0xEF46_DB37_51D8_E999 as UInt64), (1, 0xA96C_7F0C_E858_BBB7), (3, 0x56E6_9576_32A4_87F9),
        (4, 0xC60D_15B1_E3FF_8F04), (7, 0xAFBE_FC3D_6C6F_9A8E), (8, 0x3DA5_C7AA_2696_83E0),
        (31, 0x4A74_F3A1_A39A_D4A1), (32, 0x8D57_D6A4_671C_C43D), (33, 0x62C9_FD21_ED85_7664),
        (63, 0x5C32_0A0D_2707_057F), (64, 0x7BBA_BBC4_5729_D17E), (100, 0xEFA0_AD2D_3E70_C151),
        (1000, 0x9959_4F48_2804_3D35),
    ])
    func hashesLikeTheReferenceImplementation(length: Int, expected: UInt64) {
        let hash = Self.input.withUnsafeBytes { XXH64.hash(UnsafeRawBufferPointer(rebasing: $0[0..<length])) }
        #expect(hash == expected)
    }

    /// The example of the xxHash documentation.
    @Test func hashesABC() {
        #expect(Array("abc".utf8).withUnsafeBytes { XXH64.hash($0) } == 0x44BC_2CF5_AD77_0999)
    }
}
