import LifetraceFormat

/// A copy of a block the analyzer lent, kept at one address for as long as any export call points into it: the
/// calls an ``EncodingThread`` makes later read their events' strings and rarer fields there, after the reader has
/// reused its own block for the frames that followed.
///
/// The copy shares the block's storage until the reader writes its next frame into its own, so making one costs
/// a few reference counts, not a copy of the events.
final class PinnedBlock: @unchecked Sendable {
    /// Where the copy is: read-only from any thread, for the life of the object.
    let pointer: UnsafePointer<EventBlock>

    /// A copy of `block`.
    init(_ block: borrowing EventBlock) {
        let storage = UnsafeMutablePointer<EventBlock>.allocate(capacity: 1)
        storage.initialize(to: copy block)
        pointer = UnsafePointer(storage)
    }

    deinit {
        let storage = UnsafeMutablePointer(mutating: pointer)
        storage.deinitialize(count: 1)
        storage.deallocate()
    }
}
