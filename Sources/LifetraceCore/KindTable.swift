/// A value per event kind, by tag: the tables the decoder and the analyzer read for every event.
///
/// A table holds exactly 256 entries, one per value of a tag (a `UInt8`), so a read by tag is always in range
/// and needs no bounds check: one load. A table by kind is made from ``EventKind/byTag``, mapped where the
/// table's element type is known (a generic map here would run unspecialized).
///
/// The type and its subscript are public and inlinable for speed alone: its users in other modules (the format's
/// block decoder, the analyzer) read it once or more per event, and a body that is not inlined there is a call,
/// unspecialized for the element type, per read. A `package` declaration's inlinable body is not inlined across
/// modules by this toolchain, so the subscript must be `public`. It is not an interface for apps: nothing outside
/// this package makes one.
public struct KindTable<Element> {
    /// The entries, by tag; exactly 256 of them.
    @usableFromInline let entries: [Element]

    /// A table of the 256 `entries`, by tag.
    package init(_ entries: [Element]) {
        precondition(entries.count == 256, "a table by tag has 256 entries")
        self.entries = entries
    }

    /// The entry for the kind whose tag is `tag`.
    @inlinable @inline(__always)
    public subscript(tag: UInt8) -> Element {
        // In range: `entries` has 256 elements and a tag is below 256.
        entries.withUnsafeBufferPointer { $0[Int(tag)] }
    }
}

extension KindTable: Sendable where Element: Sendable {}
