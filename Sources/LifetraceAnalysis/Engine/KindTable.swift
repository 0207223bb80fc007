/// A value per event kind, by tag: the tables the analyzer reads for every event.
///
/// A table holds exactly 256 entries, one per value of a tag (a `UInt8`), so a read by tag is always in range
/// and needs no bounds check: one load.
struct KindTable<Element> {
    /// The entries, by tag; exactly 256 of them.
    private let entries: [Element]

    /// A table of the 256 `entries`, by tag.
    init(_ entries: [Element]) {
        precondition(entries.count == 256, "a table by tag has 256 entries")
        self.entries = entries
    }

    /// The entry for the kind whose tag is `tag`.
    @inline(__always)
    subscript(tag: UInt8) -> Element {
        // In range: `entries` has 256 elements and a tag is below 256.
        entries.withUnsafeBufferPointer { $0[Int(tag)] }
    }
}
