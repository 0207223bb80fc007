import Testing

@testable import LifetraceFormat

/// The primitive encodings of `Schemas/lifetrace-format.md`, checked against values worked out by hand.
@Suite struct EncodingPrimitivesTests {
    static let varints: [(UInt64, [UInt8])] = [
        (0, [0x00]), (1, [0x01]), (127, [0x7F]), (128, [0x80, 0x01]), (300, [0xAC, 0x02]),
        (16_384, [0x80, 0x80, 0x01]),
        (UInt64.max, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
    ]

    @Test(arguments: varints)
    func varintsAreLEB128(value: UInt64, bytes: [UInt8]) throws {
        var encoded: [UInt8] = []
        encoded.appendVarint(value)
        #expect(encoded == bytes)
        let decoded = try bytes.withUnsafeBytes { raw in
            var cursor = ByteCursor(raw)
            return try cursor.readVarint()
        }
        #expect(decoded == value)
    }

    @Test(arguments: [
        (Int64(0), UInt64(0)), (-1, 1), (1, 2), (-2, 3), (Int64.max, UInt64.max - 1), (Int64.min, UInt64.max),
    ])
    func zigzagInterleavesSigns(value: Int64, zigzag: UInt64) throws {
        var encoded: [UInt8] = []
        encoded.appendZigzag(value)
        var expected: [UInt8] = []
        expected.appendVarint(zigzag)
        #expect(encoded == expected)
        let decoded = try encoded.withUnsafeBytes { raw in
            var cursor = ByteCursor(raw)
            return try cursor.readZigzag()
        }
        #expect(decoded == value)
    }

    @Test(arguments: [
        [UInt8](repeating: 0x80, count: 11),  // more than 10 bytes
        [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02],  // overflows 64 bits
        [0x80],  // runs past the end
    ])
    func malformedVarintsAreRejected(bytes: [UInt8]) {
        #expect(throws: DecodeFailure.self) {
            try bytes.withUnsafeBytes { raw in
                var cursor = ByteCursor(raw)
                _ = try cursor.readVarint()
            }
        }
    }

    /// Values 0, 0x12, 0x3456 and 0x789ABC: lengths 0,1,2,3; plane 0 gets 12 56 BC, plane 1 gets 34 9A,
    /// plane 2 gets 78.
    @Test func splitIntegerColumnsStoreBytePlanes() throws {
        var column = SplitIntegerColumnEncoder()
        for value: UInt64 in [0, 0x12, 0x3456, 0x78_9ABC] { column.append(value) }
        var sizes: [UInt8] = []
        column.appendPlaneSizes(to: &sizes)
        #expect(sizes == [3, 2, 1, 0, 0, 0, 0, 0])
        var data: [UInt8] = []
        column.appendData(to: &data)
        #expect(data == [0, 1, 2, 3, 0x12, 0x56, 0xBC, 0x34, 0x9A, 0x78])
        #expect(try Self.roundTrip([0, 0x12, 0x3456, 0x78_9ABC]) == [0, 0x12, 0x3456, 0x78_9ABC])
    }

    /// 22 values of one byte, but four of eight bytes (3, 11, 19 and 20), each with its own top byte:
    /// planes 1 to 7 are sparse, and two of their values come after the last whole word of eight lengths.
    static let sparseColumn: [UInt64] = (0..<22).map { (i: Int) -> UInt64 in
        let value = UInt64(i)
        return i % 8 == 3 || i == 20 ? (value + 1) << 56 | value << 24 : value
    }

    /// 21 values of two bytes but two of one (5 and 19), each with its own high byte: plane 1 is dense, read
    /// eight at a time, with a run of eight that is not whole and five values after the last whole run.
    static let denseColumn: [UInt64] = (0..<21).map { (i: Int) -> UInt64 in
        let value = UInt64(i + 1)
        return i == 5 || i == 19 ? value : (value + 100) << 8 | value
    }

    /// Encodes `values` as a split-integer column and decodes them back.
    private static func roundTrip(_ values: [UInt64]) throws -> [UInt64] {
        var column = SplitIntegerColumnEncoder()
        for value in values { column.append(value) }
        var data: [UInt8] = []
        column.appendData(to: &data)
        let planes = column.planes.map(\.count)
        return try data.withUnsafeBytes { raw in
            var cursor = ByteCursor(raw)
            let decoder = try SplitIntegerColumnDecoder(
                count: values.count, planeSizes: planes, from: &cursor, base: raw)
            try decoder.validate()
            #expect(cursor.isAtEnd)
            return [UInt64](unsafeUninitializedCapacity: values.count) { buffer, initialized in
                decoder.decode(into: buffer.baseAddress!)
                initialized = values.count
            }
        }
    }

    /// Planes every value reaches (read straight), planes only some reach (read masked), planes few reach
    /// (visited through a scan of the lengths, eight at a time, then one by one for the last few), planes
    /// nearly every value reaches (eight at a time), a last plane ending at the column's last byte, the full
    /// 64-bit range, and an empty column.
    @Test(
        arguments: [
            [0x1234, 0x56_789A, 0xBCDE, 0xF0_1234_5678],
            sparseColumn,
            denseColumn,
            [0x01_0000, 0x02_0000, 0x03_0000],
            [0, 0, 0, 0xFF],
            [UInt64.max, 0, 1 << 63, 0x80],
            [0],
            [],
        ] as [[UInt64]])
    func splitIntegerColumnsRoundTrip(values: [UInt64]) throws {
        #expect(try Self.roundTrip(values) == values)
    }

    /// A plane with a byte more or less than the lengths call for, or a length over 8, is rejected before
    /// any value is read.
    @Test(
        arguments: [
            (
                [0, 1, 2, 3, 0x12, 0x56, 0xBC, 0x34, 0x9A], [3, 2, 0, 0, 0, 0, 0, 0],
                "plane 2 holds 0 bytes where the lengths call for 1"
            ),
            (
                [0, 1, 2, 2, 0x12, 0x56, 0xBC, 0x34, 0x9A, 0x78], [3, 2, 1, 0, 0, 0, 0, 0],
                "plane 2 holds 1 bytes where the lengths call for 0"
            ),
            (
                [0, 1, 2, 9, 0x12, 0x56, 0xBC, 0x34, 0x9A, 0x78], [3, 2, 1, 0, 0, 0, 0, 0],
                "integer length 9 exceeds 8 bytes"
            ),
        ] as [([UInt8], [Int], String)])
    func splitIntegerColumnsWithWrongPlaneSizesAreRejected(data: [UInt8], planes: [Int], message: String) throws {
        #expect {
            try data.withUnsafeBytes { raw in
                var cursor = ByteCursor(raw)
                let decoder = try SplitIntegerColumnDecoder(count: 4, planeSizes: planes, from: &cursor, base: raw)
                try decoder.validate()
            }
        } throws: { error in
            (error as? DecodeFailure)?.message == message
        }
    }

    /// A long column (thousands of values, every length from 0 to 8) is checked eight lengths at a time
    /// and read back exactly; a length of 9 deep inside it is found at its own byte.
    @Test func longSplitIntegerColumnsAreCheckedWhole() throws {
        var generator = SystemRandomNumberGenerator()
        let values: [UInt64] = (0..<5000).map { i in
            let bytes = UInt64(i % 9)
            return bytes == 0
                ? 0
                : (1 << (8 * (bytes - 1))) | UInt64.random(in: 0...UInt64.max, using: &generator)
                    >> (64 - 8 * (bytes - 1))
        }
        #expect(try Self.roundTrip(values) == values)
        var column = SplitIntegerColumnEncoder()
        for value in values { column.append(value) }
        var data: [UInt8] = []
        column.appendData(to: &data)
        let planes = column.planes.map(\.count)
        data[3001] = 9
        #expect {
            try data.withUnsafeBytes { raw in
                var cursor = ByteCursor(raw)
                let decoder = try SplitIntegerColumnDecoder(
                    count: values.count, planeSizes: planes, from: &cursor, base: raw)
                try decoder.validate()
            }
        } throws: { error in
            (error as? DecodeFailure).map { $0.offset == 3001 && $0.message == "integer length 9 exceeds 8 bytes" }
                ?? false
        }
    }
}
