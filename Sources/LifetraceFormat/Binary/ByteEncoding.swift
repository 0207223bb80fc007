/// Appends the encodings `Schemas/lifetrace-format.md` defines to a byte array.
extension Array where Element == UInt8 {
    /// Appends a signed value as a zigzag varint.
    @inline(__always)
    mutating func appendZigzag(_ value: Int64) {
        appendVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// Appends a 16-bit little-endian integer.
    mutating func appendUInt16LE(_ value: UInt16) {
        append(UInt8(truncatingIfNeeded: value))
        append(UInt8(truncatingIfNeeded: value >> 8))
    }

    /// Appends a 32-bit little-endian integer.
    mutating func appendUInt32LE(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    /// Appends a 64-bit little-endian integer.
    mutating func appendUInt64LE(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
}

/// Reads a 32-bit little-endian integer at `offset` of `bytes`; the caller checks the bound.
@inline(__always)
func loadUInt32LE(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
    UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
        | UInt32(bytes[offset + 3]) << 24
}
