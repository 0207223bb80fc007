import LifetraceCore
import LifetraceFormat

/// A copy of a block the analyzer lent, kept at one address for as long as any export call points into it: the
/// calls an ``EncodingThread`` makes later read their events' strings and rarer fields there, after the reader has
/// reused its own block for the frames that followed. Each call carries its event's record, so the copy holds none:
/// only the rarer fields, attributes and strings, which most events do not have.
///
/// The copy is compact and of its own: each array sized to what the block holds, so that a pin takes the memory of
/// its events and no more, and the reader's block keeps buffers it alone holds, which it reuses frame after frame.
/// Making one copies the block's rarer fields and attributes and its strings' references (a string over 256 bytes,
/// its bounded form).
final class PinnedBlock {
    /// Where the copy is: read-only, from either thread, for the life of the object.
    let pointer: UnsafePointer<EventBlock>

    /// A copy of `block`, its records left out.
    init(_ block: borrowing EventBlock) {
        var copy = EventBlock()
        copy.extras = block.extras.withUnsafeBufferPointer { Array($0) }
        copy.attributes = block.attributes.withUnsafeBufferPointer { Array($0) }
        // Every string kept bounded (``KeptName``): a scene named in megabytes is pinned, and written, in 256 bytes.
        copy.strings = block.strings.map(KeptName.bounded)
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
