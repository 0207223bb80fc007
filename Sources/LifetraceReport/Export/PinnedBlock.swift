import LifetraceFormat

/// A copy of the strings and attributes of a block the analyzer lent, kept at one address for as long as any export
/// call points into it: the calls an ``EncodingThread`` makes later read their events' strings and attributes there,
/// after the reader has reused its own block for the frames that followed. An event's record and rarer fields are
/// numbers its call carries (``ExportEventFields``), so the copy holds none of them: a block of 262,144 tasks, each
/// with its identifier, pins a few strings, not 10 MB.
///
/// The copy is compact and of its own: each array sized to what the block holds, and the reader's block keeps
/// buffers it alone holds, which it reuses frame after frame. Making one copies the block's attributes and its
/// strings' references.
final class PinnedBlock {
    /// Where the copy is: read-only, from either thread, for the life of the object.
    let pointer: UnsafePointer<EventBlock>

    /// A copy of `block`'s strings and attributes.
    init(_ block: borrowing EventBlock) {
        var copy = EventBlock()
        copy.attributes = block.attributes.withUnsafeBufferPointer { Array($0) }
        copy.strings = block.strings.withUnsafeBufferPointer { Array($0) }
        let storage = UnsafeMutablePointer<EventBlock>.allocate(capacity: 1)
        storage.initialize(to: copy)
        pointer = UnsafePointer(storage)
    }

    deinit {
        let storage = UnsafeMutablePointer(mutating: pointer)
        storage.deinitialize(count: 1)
        storage.deallocate()
    }
}
