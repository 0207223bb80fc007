extension ByteWriter {
    /// Makes room for `extra` more bytes and returns where they go, for a writer in another module that fills them
    /// through the pointer with no check per byte and then counts them with ``commitTail(_:)``.
    ///
    /// - Parameter extra: The most bytes written there.
    /// - Returns: Where the next byte goes.
    @inlinable @inline(__always)
    public mutating func reserveTail(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        reserve(extra)
        return base + count
    }

    /// Counts `written` bytes written at the pointer ``reserveTail(_:)`` returned (no more than it made room for).
    ///
    /// - Parameter written: The bytes written at the pointer.
    @inlinable @inline(__always)
    public mutating func commitTail(_ written: Int) {
        precondition(written >= 0 && count + written <= capacity)
        self.written += written
    }
}

extension ByteWriter {
    /// Replaces the byte written at `position` (a separator written ahead of knowing what it had to be).
    package mutating func replaceByte(at position: Int, with byte: UInt8) {
        precondition(position >= 0 && position < count)
        base[position] = byte
    }
}
