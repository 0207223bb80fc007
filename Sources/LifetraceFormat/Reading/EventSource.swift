import LifetraceCore

/// A decoder that yields a trace's events in batches: one frame, or one chunk of lines, at a time.
protocol EventSource: AnyObject {
    var header: TraceHeader? { get }
    var warnings: [TraceWarning] { get }
    var statistics: TraceStatistics { get }
    /// Appends the next batch to `events`; returns `false` at the end of the trace.
    func nextBatch(into events: inout [LifecycleEvent]) throws(TraceError) -> Bool
    /// Lends every remaining event to `body`, in order, a block at a time; no block is empty. A source that
    /// can decode on other threads than the caller's uses up to `threads` of them.
    ///
    /// - Throws: ``TraceError`` for damage, or what `body` throws.
    func forEachRemainingBlock(decodingThreads threads: Int, _ body: (borrowing EventBlock) throws -> Void) throws
    /// Lends every remaining event to `body`, in order, as a ``LifecycleEvent``.
    ///
    /// - Throws: ``TraceError`` for damage, or what `body` throws.
    func forEachRemaining(_ body: (borrowing LifecycleEvent) throws -> Void) throws
    /// Counts every remaining event into `tally`, checking each as reading it would; a source that can read on
    /// other threads than the caller's uses up to `threads` of them.
    ///
    /// - Throws: ``TraceError`` for damage.
    func tallyRemaining(decodingThreads threads: Int, into tally: inout EventTally) throws
}

extension EventSource {
    /// Lends every remaining event to `body` a block at a time, decoding on one thread at most.
    func forEachRemainingBlock(_ body: (borrowing EventBlock) throws -> Void) throws {
        try forEachRemainingBlock(decodingThreads: 1, body)
    }

    /// Counts the records of each block: for sources that build blocks of records anyway.
    func tallyRemaining(decodingThreads threads: Int, into tally: inout EventTally) throws {
        var counted = BlockTally()
        try forEachRemainingBlock(decodingThreads: threads) { block in
            counted.count(block)
            tally.add(counted)
        }
    }

    /// Builds each event from the blocks: for sources that decode into blocks.
    func forEachRemaining(_ body: (borrowing LifecycleEvent) throws -> Void) throws {
        try forEachRemainingBlock { block in
            for row in 0..<block.count { try body(block.event(at: row)) }
        }
    }
}
