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

    /// The bytes the column holds: its lengths and its planes.
    private(set) var byteCount = 0

    @inline(__always)
    mutating func append(_ value: UInt64) {
        let length = value == 0 ? 0 : (64 - value.leadingZeroBitCount + 7) / 8
        byteCount += 1 + length
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
        byteCount = 0
        lengths.removeAll(keepingCapacity: true)
        for plane in planes.indices { planes[plane].removeAll(keepingCapacity: true) }
    }
}

/// Reads a split-integer column back, checking every plane's bound.
///
/// The eight planes are eight separate cursors (not an array), so reading a value touches no array storage.
struct SplitIntegerColumnDecoder {
    private var lengths: ByteCursor
    private var p0, p1, p2, p3, p4, p5, p6, p7: ByteCursor

    /// A decoder over `count` values whose planes have the sizes `planeSizes`, taken from `cursor`.
    init(count: Int, planeSizes: [Int], from cursor: inout ByteCursor, base: UnsafeRawBufferPointer) throws(DecodeFailure) {
        precondition(planeSizes.count == 8)
        func take(_ size: Int, _ cursor: inout ByteCursor) throws(DecodeFailure) -> ByteCursor {
            let start = cursor.position
            _ = try cursor.readBytes(size)
            return ByteCursor(UnsafeRawBufferPointer(rebasing: base[start..<(start + size)]), origin: start)
        }
        lengths = try take(count, &cursor)
        p0 = try take(planeSizes[0], &cursor)
        p1 = try take(planeSizes[1], &cursor)
        p2 = try take(planeSizes[2], &cursor)
        p3 = try take(planeSizes[3], &cursor)
        p4 = try take(planeSizes[4], &cursor)
        p5 = try take(planeSizes[5], &cursor)
        p6 = try take(planeSizes[6], &cursor)
        p7 = try take(planeSizes[7], &cursor)
    }

    /// Checks the column as a whole: every length is at most 8 and each plane holds exactly the bytes the
    /// lengths call for. Every value can then be read with ``nextValidated()``, with no bound check per byte.
    func validate() throws(DecodeFailure) {
        var lengths = self.lengths
        var counts = [Int](repeating: 0, count: 9)  // counts[n]: values of n bytes
        while !lengths.isAtEnd {
            let start = lengths.absolutePosition
            let length = Int(lengths.readByteUnchecked())
            guard length <= 8 else { throw DecodeFailure(offset: start, message: "integer length \(length) exceeds 8 bytes") }
            counts[length] += 1
        }
        var longer = [Int](repeating: 0, count: 8)  // longer[k]: values of more than k bytes, plane k's size
        var sum = 0
        for k in stride(from: 7, through: 0, by: -1) {
            sum += counts[k + 1]
            longer[k] = sum
        }
        let planes = [p0, p1, p2, p3, p4, p5, p6, p7]
        for (k, plane) in planes.enumerated() where plane.remaining != longer[k] {
            throw DecodeFailure(offset: plane.absolutePosition,
                                message: "plane \(k) holds \(plane.remaining) bytes where the lengths call for \(longer[k])")
        }
    }

    /// The next value of a column ``validate()`` accepted.
    @inline(__always)
    mutating func nextValidated() -> UInt64 {
        let length = lengths.readByteUnchecked()
        var value: UInt64 = 0
        if length > 0 { value = UInt64(p0.readByteUnchecked()) }
        if length > 1 { value |= UInt64(p1.readByteUnchecked()) << 8 }
        if length > 2 { value |= UInt64(p2.readByteUnchecked()) << 16 }
        if length > 3 { value |= UInt64(p3.readByteUnchecked()) << 24 }
        if length > 4 { value |= UInt64(p4.readByteUnchecked()) << 32 }
        if length > 5 { value |= UInt64(p5.readByteUnchecked()) << 40 }
        if length > 6 { value |= UInt64(p6.readByteUnchecked()) << 48 }
        if length > 7 { value |= UInt64(p7.readByteUnchecked()) << 56 }
        return value
    }
}
