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
/// The column is checked as a whole (``validate()``) and then decoded plane by plane
/// (``decode(into:)``): a plane every value reaches is read straight, one that only some values reach is read
/// without a branch per value, so values of mixed lengths cost no mispredicted branch.
struct SplitIntegerColumnDecoder {
    private let lengths: ByteCursor
    private let planes: [ByteCursor]

    /// A decoder over `count` values whose planes have the sizes `planeSizes`, taken from `cursor`.
    init(count: Int, planeSizes: [Int], from cursor: inout ByteCursor, base: UnsafeRawBufferPointer)
        throws(DecodeFailure)
    {
        precondition(planeSizes.count == 8)
        func take(_ size: Int, _ cursor: inout ByteCursor) throws(DecodeFailure) -> ByteCursor {
            let start = cursor.position
            _ = try cursor.readBytes(size)
            return ByteCursor(UnsafeRawBufferPointer(rebasing: base[start..<(start + size)]), origin: start)
        }
        lengths = try take(count, &cursor)
        var planes: [ByteCursor] = []
        for size in planeSizes { planes.append(try take(size, &cursor)) }
        self.planes = planes
    }

    /// The number of values.
    var count: Int { lengths.remaining }

    /// Checks the column as a whole: every length is at most 8 and each plane holds exactly the bytes the
    /// lengths call for. The column can then be read with ``decode(into:)``, with no bound check per byte.
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
                longer[k] += Int(truncatingIfNeeded: (pairs &* 0x0001_0001_0001_0001) >> 48)  // at most 8 * 255
            }
            if words < 255 { break }
        }
        while i < lengths.count {
            let length = Int(lengths[i])
            guard length <= 8 else {
                throw DecodeFailure(
                    offset: self.lengths.absolutePosition + i, message: "integer length \(length) exceeds 8 bytes")
            }
            for k in 0..<length { longer[k] += 1 }
            i += 1
        }
        for (k, plane) in planes.enumerated() where plane.remaining != longer[k] {
            throw DecodeFailure(
                offset: plane.absolutePosition,
                message: "plane \(k) holds \(plane.remaining) bytes where the lengths call for \(longer[k])")
        }
    }

    /// The sum of the values of a column ``validate()`` accepted, without decoding them: each value is the sum
    /// of its bytes, each shifted to its plane, so the sum of the values is the sum of each plane's bytes shifted
    /// to the plane. `nil` if it does not fit 64 bits.
    func sum() -> UInt64? {
        var total: UInt64 = 0
        for (k, plane) in planes.enumerated() where plane.remaining > 0 {
            let bytes = Self.byteSum(plane.remainingBytes)
            guard bytes <= UInt64.max >> UInt64(8 * k) else { return nil }
            let (sum, overflow) = total.addingReportingOverflow(bytes << UInt64(8 * k))
            guard !overflow else { return nil }
            total = sum
        }
        return total
    }

    /// The sum of `bytes`, eight at a time: each word's bytes are added as four 16-bit lanes, which cannot
    /// overflow within 128 words, and the lanes are added up after each run of them.
    private static func byteSum(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard let base = bytes.baseAddress else { return 0 }
        let n = bytes.count
        let mask: UInt64 = 0x00FF_00FF_00FF_00FF
        var total: UInt64 = 0
        var i = 0
        while i &+ 8 <= n {
            var lanes: UInt64 = 0
            var words = 0
            while words < 128, i &+ 8 <= n {
                let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                lanes &+= (word & mask) &+ ((word >> 8) & mask)
                i &+= 8
                words &+= 1
            }
            total &+= (lanes & 0xFFFF) &+ ((lanes >> 16) & 0xFFFF) &+ ((lanes >> 32) & 0xFFFF) &+ (lanes >> 48)
        }
        while i < n {
            total &+= UInt64(base[i])
            i &+= 1
        }
        return total
    }

    /// The byte length of the longest value (0 for a column of zeros or of no value): every value is below 256
    /// to that power. Plane k holds a byte for each value longer than k bytes.
    var longestLength: Int {
        (planes.lastIndex { $0.remaining > 0 } ?? -1) + 1
    }

    /// Writes every value of a column ``validate()`` accepted to `values`, which holds at least ``count``.
    func decode(into values: UnsafeMutablePointer<UInt64>) {
        let n = count
        guard n > 0 else { return }
        let lengths = self.lengths.remainingBytes.baseAddress!
        // A plane 0 that every value reaches sets every value; otherwise they start from zero.
        let full = planes[0].remaining == n
        if !full { values.update(repeating: 0, count: n) }
        for k in 0..<8 {
            let size = planes[k].remaining
            // Plane k holds a byte for each value longer than k bytes, so the sizes never grow with k.
            if size == 0 { break }
            let bytes = planes[k].remainingBytes.baseAddress!
            let shift = UInt64(8 &* k)
            if k == 0, full {
                for i in 0..<n { values[i] = UInt64(bytes[i]) }
                continue
            }
            if size == n {
                for i in 0..<n { values[i] |= UInt64(bytes[i]) << shift }
                continue
            }
            if size &* 3 < n {
                Self.decodeSparsePlane(k, bytes: bytes, lengths: lengths, count: n, into: values)
                continue
            }
            if size &* 8 > n &* 7 {
                Self.decodeDensePlane(k, bytes: bytes, size: size, lengths: lengths, count: n, into: values)
                continue
            }
            // Value i takes the plane's next byte when it is longer than k bytes. The byte is loaded either way
            // and masked off when not taken; the loop ends after the last value that takes one, so every
            // load is within the plane.
            let k8 = UInt8(truncatingIfNeeded: k)
            var position = 0
            var i = 0
            while position < size {
                let take = lengths[i] > k8 ? 1 : 0
                values[i] |= (UInt64(bytes[position]) & (0 &- UInt64(truncatingIfNeeded: take))) << shift
                position &+= take
                i &+= 1
            }
        }
    }

    /// Adds plane `k`, which nearly every value reaches, to `values`: eight values at a time, straight from
    /// the plane when all eight reach it (most runs of eight), masked one by one otherwise.
    private static func decodeDensePlane(
        _ k: Int, bytes: UnsafePointer<UInt8>, size: Int, lengths: UnsafePointer<UInt8>, count n: Int,
        into values: UnsafeMutablePointer<UInt64>
    ) {
        let shift = UInt64(8 &* k)
        let last = size &- 1
        var position = 0
        var i = 0
        while i &+ 8 <= n {
            let takers = takers(lengths + i, exceeding: k)
            if takers == 0xFF {
                for j in 0..<8 { values[i &+ j] |= UInt64(bytes[position &+ j]) << shift }
                position &+= 8
            } else {
                // Loaded either way and masked off when not taken; the position is kept within the plane.
                for j in 0..<8 {
                    let take = (takers >> UInt64(j)) & 1
                    values[i &+ j] |= (UInt64(bytes[min(position, last)]) & (0 &- take)) << shift
                    position &+= Int(truncatingIfNeeded: take)
                }
            }
            i &+= 8
        }
        decodeRest(k, from: i, position: position, bytes: bytes, lengths: lengths, count: n, into: values)
    }

    /// Adds plane `k`, which few values reach, to `values`: the lengths are scanned eight at a time, and only
    /// the values longer than `k` bytes are visited.
    private static func decodeSparsePlane(
        _ k: Int, bytes: UnsafePointer<UInt8>, lengths: UnsafePointer<UInt8>, count n: Int,
        into values: UnsafeMutablePointer<UInt64>
    ) {
        let shift = UInt64(8 &* k)
        var position = 0
        var i = 0
        while i &+ 8 <= n {
            var takers = takers(lengths + i, exceeding: k)
            while takers != 0 {
                values[i &+ takers.trailingZeroBitCount] |= UInt64(bytes[position]) << shift
                position &+= 1
                takers &= takers &- 1
            }
            i &+= 8
        }
        decodeRest(k, from: i, position: position, bytes: bytes, lengths: lengths, count: n, into: values)
    }

    /// Which of the eight lengths at `lengths` exceed `k`: bit j for length j. A length (at most 8, as
    /// checked) exceeds k when adding 0x7F - k sets its top bit; the top bits, moved to the low bit of each
    /// byte and multiplied by 0x0102040810204080, gather in the top byte.
    @inline(__always)
    private static func takers(_ lengths: UnsafePointer<UInt8>, exceeding k: Int) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let word = UnsafeRawPointer(lengths).loadUnaligned(as: UInt64.self)
        return ((((word &+ (0x7F &- UInt64(k)) &* ones) >> 7) & ones) &* 0x0102_0408_1020_4080) >> 56
    }

    /// Adds plane `k` to the values from `i` on, one by one: the few after the last run of eight.
    @inline(__always)
    private static func decodeRest(
        _ k: Int, from i: Int, position: Int, bytes: UnsafePointer<UInt8>, lengths: UnsafePointer<UInt8>, count n: Int,
        into values: UnsafeMutablePointer<UInt64>
    ) {
        var position = position
        for i in i..<n where Int(lengths[i]) > k {
            values[i] |= UInt64(bytes[position]) << UInt64(8 &* k)
            position &+= 1
        }
    }
}
