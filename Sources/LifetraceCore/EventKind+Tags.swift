extension EventKind {
    /// The kind of each of the 256 tags, by tag: `nil` for a tag no kind of this library has. What a
    /// ``KindTable`` of a value per kind is mapped from.
    package static let byTag: [EventKind?] = (0..<256).map { EventKind(rawValue: UInt8($0)) }
}

/// A kind is one byte, copied as such: the records that hold one are kept in raw memory.
extension EventKind: BitwiseCopyable {}
