extension UInt64 {
    /// The bytes of the value as a protobuf varint.
    @inline(__always) var varintSize: Int { (64 - (self | 1).leadingZeroBitCount + 6) / 7 }
}
