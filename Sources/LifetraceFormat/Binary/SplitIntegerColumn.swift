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
        let lengths = self.lengths.remainingBytes
        var longer = [Int](repeating: 0, count: 8)  // longer[k]: values of more than k bytes, plane k's size
        var i = 0
        // Eight lengths at a time. Once no byte of a word exceeds 8, adding 0x7F - k to every byte sets its
        // top bit exactly when the byte exceeds k (no carry crosses bytes); the top bits, shifted down, are
        // summed per byte lane, and the lanes are added up before any can overflow.
        let ones: UInt64 = 0x0101_0101_0101_0101
        while i + 8 <= lengths.count {
            var lanes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
            var words = 0
            while words < 255, i + 8 <= lengths.count {
                let word = UnsafeRawPointer(lengths.baseAddress! + i).loadUnaligned(as: UInt64.self)
                guard (word | (word &+ 0x77 &* ones)) & (0x80 &* ones) == 0 else { break }  // a length above 8
                lanes.0 &+= ((word &+ 0x7F &* ones) >> 7) & ones
                lanes.1 &+= ((word &+ 0x7E &* ones) >> 7) & ones
                lanes.2 &+= ((word &+ 0x7D &* ones) >> 7) & ones
                lanes.3 &+= ((word &+ 0x7C &* ones) >> 7) & ones
                lanes.4 &+= ((word &+ 0x7B &* ones) >> 7) & ones
                lanes.5 &+= ((word &+ 0x7A &* ones) >> 7) & ones
                lanes.6 &+= ((word &+ 0x79 &* ones) >> 7) & ones
                lanes.7 &+= ((word &+ 0x78 &* ones) >> 7) & ones
                i += 8
                words += 1
            }
            for (k, lane) in [lanes.0, lanes.1, lanes.2, lanes.3, lanes.4, lanes.5, lanes.6, lanes.7].enumerated() {
                // The eight byte lanes (each at most 255) summed as four 16-bit lanes, then those.
                let pairs = (lane & 0x00FF_00FF_00FF_00FF) &+ ((lane >> 8) & 0x00FF_00FF_00FF_00FF)
                longer[k] += Int((pairs &* 0x0001_0001_0001_0001) >> 48)
            }
            if words < 255 { break }
        }
        while i < lengths.count {
            let length = Int(lengths[i])
            guard length <= 8 else {
                throw DecodeFailure(offset: self.lengths.absolutePosition + i, message: "integer length \(length) exceeds 8 bytes")
            }
            for k in 0..<length { longer[k] += 1 }
            i += 1
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
