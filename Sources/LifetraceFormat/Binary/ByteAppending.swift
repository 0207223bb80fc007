/// Where encoded bytes go: a byte array, or a ``ByteWriter`` on the hot paths of the exports. The encodings
/// (varints, JSON text) are written once, over this, and specialized for each.
package protocol ByteAppending {
    /// Appends a byte.
    mutating func append(_ byte: UInt8)
    /// Appends `bytes`.
    mutating func appendBytes(_ bytes: UnsafeRawBufferPointer)
}

extension Array: ByteAppending where Element == UInt8 {
    /// Appends `bytes`.
    @inlinable
    package mutating func appendBytes(_ bytes: UnsafeRawBufferPointer) {
        append(contentsOf: bytes)
    }
}

extension ByteAppending {
    /// Appends an unsigned LEB128 varint (protobuf's varint too).
    @inlinable @inline(__always)
    package mutating func appendVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        append(UInt8(truncatingIfNeeded: value))
    }

    /// Appends a string as a varint length and its UTF-8 bytes (protobuf's length-delimited field too).
    @inlinable
    package mutating func appendLengthPrefixed(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            appendVarint(UInt64(utf8.count))
            appendBytes(UnsafeRawBufferPointer(utf8))
        }
    }

    /// Appends the UTF-8 bytes of `text`, a literal: one copy, with no per-character work.
    @inlinable @inline(__always)
    package mutating func appendLiteral(_ text: StaticString) {
        appendBytes(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends the UTF-8 bytes of `string` as they are (no escaping): one copy for a native string.
    @inlinable @inline(__always)
    package mutating func appendUTF8(_ string: String) {
        var string = string
        string.withUTF8 { appendBytes(UnsafeRawBufferPointer($0)) }
    }
}
