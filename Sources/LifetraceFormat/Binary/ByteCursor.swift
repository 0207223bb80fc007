/// Reads little-endian integers and LEB128 varints from a buffer, checking every bound.
///
/// The hot path of decoding: no allocation, no `Data`, just a pointer and two integers.
struct ByteCursor {
    private let base: UnsafePointer<UInt8>
    private(set) var position: Int
    let end: Int
    /// The offset of `buffer` within the enclosing content, for error positions.
    let origin: Int

    /// A cursor over `buffer`; `buffer` must outlive the cursor.
    init(_ buffer: UnsafeRawBufferPointer, origin: Int = 0) {
        self.origin = origin
        // An empty buffer may have a nil base address; point at a harmless static byte instead.
        self.base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? ByteCursor.emptyBase
        self.position = 0
        self.end = buffer.count
    }

    nonisolated(unsafe) private static let emptyBase: UnsafePointer<UInt8> = {
        let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        pointer.initialize(to: 0)
        return UnsafePointer(pointer)
    }()

    /// The position within the enclosing content.
    /// (Both are offsets within one buffer, so the sum cannot overflow; not trapping lets a hot loop take it
    /// only on the path that reports an error.)
    var absolutePosition: Int { origin &+ position }

    /// Whether every byte was read.
    var isAtEnd: Bool { position >= end }

    /// The number of bytes left.
    var remaining: Int { end - position }

    /// The bytes not read yet, valid as long as the underlying buffer.
    var remainingBytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + position, count: end - position)
    }

    @inline(__always)
    mutating func readByte() throws(DecodeFailure) -> UInt8 {
        guard position < end else { throw DecodeFailure(offset: origin + position, message: "unexpected end of data") }
        let byte = base[position]
        position += 1
        return byte
    }

    /// An unsigned LEB128 varint of at most 10 bytes.
    @inline(__always)
    mutating func readVarint() throws(DecodeFailure) -> UInt64 {
        // Fast paths for one and two bytes: tags, counts, deltas, string indexes of blocks with many strings.
        // `position` is below `end` where it steps, so the steps cannot overflow.
        if position < end, base[position] < 0x80 {
            let value = UInt64(base[position])
            position &+= 1
            return value
        }
        if position &+ 1 < end, base[position &+ 1] < 0x80 {
            let value = UInt64(base[position] & 0x7F) | UInt64(base[position &+ 1]) << 7
            position &+= 2
            return value
        }
        return try readVarintSlow()
    }

    private mutating func readVarintSlow() throws(DecodeFailure) -> UInt64 {
        let start = position
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < end else {
                throw DecodeFailure(offset: origin + start, message: "varint runs past the end")
            }
            let byte = base[position]
            position += 1
            if shift == 63, byte > 1 {
                throw DecodeFailure(offset: origin + start, message: "varint overflows 64 bits")
            }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
            if shift > 63 { throw DecodeFailure(offset: origin + start, message: "varint longer than 10 bytes") }
        }
    }

    /// A varint that must fit a non-negative `Int64`.
    @inline(__always)
    mutating func readNonNegative() throws(DecodeFailure) -> Int64 {
        let start = position
        let value = try readVarint()
        guard value <= UInt64(Int64.max) else {
            throw DecodeFailure(offset: origin + start, message: "value \(value) exceeds the signed 64-bit range")
        }
        return Int64(value)
    }

    /// A varint used as a count or an index, which must not exceed `limit`.
    @inline(__always)
    mutating func readCount(limit: Int, _ what: StaticString) throws(DecodeFailure) -> Int {
        let start = position
        let value = try readVarint()
        guard value <= UInt64(limit) else {
            throw DecodeFailure(offset: origin + start, message: "\(what) \(value) exceeds \(limit)")
        }
        return Int(truncatingIfNeeded: value)  // at most `limit`, an Int
    }

    /// A zigzag-encoded signed varint.
    @inline(__always)
    mutating func readZigzag() throws(DecodeFailure) -> Int64 {
        let raw = try readVarint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    mutating func readUInt16LE() throws(DecodeFailure) -> UInt16 {
        let low = try readByte()
        let high = try readByte()
        return UInt16(low) | UInt16(high) << 8
    }

    mutating func readUInt64LE() throws(DecodeFailure) -> UInt64 {
        guard remaining >= 8 else { throw DecodeFailure(offset: origin + position, message: "unexpected end of data") }
        var value: UInt64 = 0
        for i in 0..<8 { value |= UInt64(base[position + i]) << (8 * UInt64(i)) }
        position += 8
        return value
    }

    /// The next `count` bytes, valid as long as the underlying buffer.
    mutating func readBytes(_ count: Int) throws(DecodeFailure) -> UnsafeBufferPointer<UInt8> {
        guard count >= 0, count <= remaining else {
            throw DecodeFailure(offset: origin + position, message: "\(count) bytes run past the end")
        }
        let bytes = UnsafeBufferPointer(start: base + position, count: count)
        position += count
        return bytes
    }
}
