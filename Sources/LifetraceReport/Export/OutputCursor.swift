import LifetraceFormat

/// Writes bytes through a pointer into room a ``ByteWriter`` made for them (``ByteWriter/write(atMost:_:)``): the
/// exports' runs of bounded size (protobuf keys and varints, JSON punctuation, names and numbers) with no call and
/// no capacity check per byte.
struct OutputCursor {
    /// Where the next byte goes.
    var position: UnsafeMutablePointer<UInt8>

    /// Writes a byte.
    @inline(__always)
    mutating func put(_ byte: UInt8) {
        position.pointee = byte
        position += 1
    }

    /// Writes an unsigned LEB128 varint (at most ten bytes).
    @inline(__always)
    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            put(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        put(UInt8(truncatingIfNeeded: value))
    }

    /// Writes an unsigned LEB128 varint of a value that is usually large (a timestamp in nanoseconds: seven or eight
    /// bytes), with no loop per byte below 2^56: its seven-bit groups spread one to a byte, the continuation bits
    /// set on all but the last, stored as one eight-byte word. Writes eight bytes whatever the varint's length, so
    /// its room must hold ten, as ``varint(_:)``'s does; the bytes past the varint are overwritten or not counted.
    @inline(__always)
    mutating func wideVarint(_ value: UInt64) {
        guard value >> 56 == 0 else { return varint(value) }
        var spread = value & 0x7F
        spread |= (value & 0x7F << 7) << 1
        spread |= (value & 0x7F << 14) << 2
        spread |= (value & 0x7F << 21) << 3
        spread |= (value & 0x7F << 28) << 4
        spread |= (value & 0x7F << 35) << 5
        spread |= (value & 0x7F << 42) << 6
        spread |= (value & 0x7F << 49) << 7
        let count = value.varintSize
        let continuation: UInt64 = 0x0080_8080_8080_8080 >> (8 &* (8 &- UInt64(count)))
        UnsafeMutableRawPointer(position).storeBytes(of: (spread | continuation).littleEndian, as: UInt64.self)
        position += count
    }

    /// "00", "01" … "99" in one literal: the characters of a pair of digits at twice its value.
    static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// The decimal digits of `value`, 1 to 20, found by halving the range of lengths with each comparison (four or
    /// five of them) rather than by one comparison per digit: an export's times have ten digits and more.
    @inline(__always)
    static func decimalDigits(_ value: UInt64) -> Int {
        if value < 10_000_000_000 {
            if value < 100_000 {
                if value < 100 { return value < 10 ? 1 : 2 }
                return value < 1_000 ? 3 : value < 10_000 ? 4 : 5
            }
            if value < 10_000_000 { return value < 1_000_000 ? 6 : 7 }
            return value < 100_000_000 ? 8 : value < 1_000_000_000 ? 9 : 10
        }
        if value < 1_000_000_000_000_000 {
            if value < 1_000_000_000_000 { return value < 100_000_000_000 ? 11 : 12 }
            return value < 10_000_000_000_000 ? 13 : value < 100_000_000_000_000 ? 14 : 15
        }
        if value < 1_000_000_000_000_000_000 {
            return value < 10_000_000_000_000_000 ? 16 : value < 100_000_000_000_000_000 ? 17 : 18
        }
        return value < 10_000_000_000_000_000_000 ? 19 : 20
    }

    /// Writes the UTF-8 bytes of `text`, a literal: one copy of a length known where it is inlined, which the
    /// compiler turns into a few moves.
    @inline(__always)
    mutating func literal(_ text: StaticString) {
        let count = text.utf8CodeUnitCount
        UnsafeMutableRawPointer(position).copyMemory(from: text.utf8Start, byteCount: count)
        position += count
    }

    /// Writes `bytes`.
    @inline(__always)
    mutating func bytes(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        UnsafeMutableRawPointer(position).copyMemory(from: source, byteCount: bytes.count)
        position += bytes.count
    }

    /// Writes `value` in decimal, as `String(value)` spells it (at most 20 bytes): its digits counted by
    /// comparison (``decimalDigits(_:)``), then written two at a time from the last.
    @inline(__always)
    mutating func decimal(_ value: Int64) {
        if value < 0 { put(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let digits = Self.decimalDigits(magnitude)
        position += digits
        var digit = position
        // Each pair's two characters copied from a literal of the hundred pairs: a load and a store, no division by ten.
        let pairs = Self.digitPairs.utf8Start
        while magnitude >= 100 {
            let pair = Int(truncatingIfNeeded: magnitude % 100)
            magnitude /= 100
            digit -= 2
            UnsafeMutableRawPointer(digit).copyMemory(from: pairs + 2 &* pair, byteCount: 2)
        }
        let last = UInt8(truncatingIfNeeded: magnitude)
        if last >= 10 {
            digit[-2] = UInt8(ascii: "0") &+ last / 10
            digit[-1] = UInt8(ascii: "0") &+ last % 10
        } else {
            digit[-1] = UInt8(ascii: "0") &+ last
        }
    }
}

extension ByteWriter {
    /// Appends what `body` writes through a cursor, at most `maximum` bytes.
    @inline(__always)
    mutating func write(atMost maximum: Int, _ body: (inout OutputCursor) -> Void) {
        let start = reserveTail(maximum)
        var cursor = OutputCursor(position: start)
        body(&cursor)
        commitTail(cursor.position - start)
    }

    /// Appends `value` in decimal through a cursor (``OutputCursor/decimal(_:)``): digits counted by comparison
    /// and copied in pairs, where `appendDecimal` divides once per digit.
    @inline(__always)
    mutating func writeDecimal(_ value: Int64) {
        write(atMost: 20) { $0.decimal(value) }
    }
}
