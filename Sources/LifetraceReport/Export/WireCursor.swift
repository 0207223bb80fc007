import LifetraceFormat

/// Writes bytes through a pointer into room a ``ByteBuffer`` made for them (``ByteBuffer/write(atMost:_:)``): the
/// protobuf export's fixed-size runs (keys, varints) with no call and no capacity check per byte.
struct WireCursor {
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
}

extension ByteBuffer {
    /// Appends what `body` writes through a cursor, at most `maximum` bytes.
    @inline(__always)
    mutating func write(atMost maximum: Int, _ body: (inout WireCursor) -> Void) {
        let start = reserveTail(maximum)
        var cursor = WireCursor(position: start)
        body(&cursor)
        commitTail(cursor.position - start)
    }
}
