/// A column of unsigned integers stored as byte planes: a length stream with one byte per value (its number
/// of significant bytes, 0...8), then plane 0 holding the low byte of every value of length ≥ 1, plane 1 the
/// next byte of every value of length ≥ 2, and so on.
///
/// Timestamps with real jitter have random low bits and predictable high ones; separating the planes lets
/// zstd spend bits only on the random part. See `Schemas/lifetrace-format.md`, "Split-integer columns".
struct SplitIntegerColumnEncoder {
    private(set) var lengths: [UInt8] = []
    private(set) var planes: [[UInt8]] = Array(repeating: [], count: 8)

    var count: Int { lengths.count }

    var byteCount: Int { lengths.count + planes.reduce(0) { $0 + $1.count } }

    @inline(__always)
    mutating func append(_ value: UInt64) {
        let length = value == 0 ? 0 : (64 - value.leadingZeroBitCount + 7) / 8
        lengths.append(UInt8(length))
        var rest = value
        for plane in 0..<length {
            planes[plane].append(UInt8(truncatingIfNeeded: rest))
            rest >>= 8
        }
    }

    /// Appends the eight plane sizes as varints (the column's part of the block's table of sizes).
    func appendPlaneSizes(to bytes: inout [UInt8]) {
        for plane in planes { bytes.appendVarint(UInt64(plane.count)) }
    }

    /// Appends the length stream and the planes.
    func appendData(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: lengths)
        for plane in planes { bytes.append(contentsOf: plane) }
    }

    mutating func removeAll() {
        lengths.removeAll(keepingCapacity: true)
        for plane in planes.indices { planes[plane].removeAll(keepingCapacity: true) }
    }
}

/// Reads a split-integer column back, checking every plane's bound.
struct SplitIntegerColumnDecoder {
    private var lengths: ByteCursor
    private var planes: [ByteCursor]

    /// A decoder over `count` values whose planes have the sizes `planeSizes`, taken from `cursor`.
    init(count: Int, planeSizes: [Int], from cursor: inout ByteCursor, base: UnsafeRawBufferPointer) throws(DecodeFailure) {
        let lengthStart = cursor.position
        _ = try cursor.readBytes(count)
        lengths = ByteCursor(UnsafeRawBufferPointer(rebasing: base[lengthStart..<(lengthStart + count)]), origin: lengthStart)
        planes = []
        planes.reserveCapacity(8)
        for size in planeSizes {
            let start = cursor.position
            _ = try cursor.readBytes(size)
            planes.append(ByteCursor(UnsafeRawBufferPointer(rebasing: base[start..<(start + size)]), origin: start))
        }
    }

    @inline(__always)
    mutating func next() throws(DecodeFailure) -> UInt64 {
        let start = lengths.absolutePosition
        let length = Int(try lengths.readByte())
        guard length <= 8 else { throw DecodeFailure(offset: start, message: "integer length \(length) exceeds 8 bytes") }
        var value: UInt64 = 0
        for plane in 0..<length {
            value |= UInt64(try planes[plane].readByte()) << UInt64(plane * 8)
        }
        return value
    }

    /// Whether every value and every plane byte was read.
    var isExhausted: Bool {
        lengths.isAtEnd && planes.allSatisfy(\.isAtEnd)
    }
}
