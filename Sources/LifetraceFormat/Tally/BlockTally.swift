import LifetraceCore

/// What one block holds, counted rather than decoded: its events by kind, and which of its strings name a
/// scene. What the counting walk reads a data frame into (``EventBlockDecoder/tally(_:into:)``), reused from one
/// frame to the next; ``EventTally`` adds blocks up.
struct BlockTally: Sendable {
    /// How many events of each tag (256 entries).
    private(set) var counts = [Int](repeating: 0, count: 256)
    /// The block's strings.
    var strings: [String] = []
    /// Which of ``strings`` name a scene.
    private(set) var named: [Bool] = []
    /// The number of events counted (those of kinds this library knows).
    var eventCount = 0

    /// An empty tally.
    init() {}

    /// Empties the tally, keeping its capacity.
    mutating func removeAll() {
        counts.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        strings.removeAll(keepingCapacity: true)
        named.removeAll(keepingCapacity: true)
        eventCount = 0
    }

    /// Lends `body` a visitor that counts into this tally, its strings (``strings``) all unmarked first.
    mutating func withVisitor<R, Failure: Error>(
        _ body: (inout EventTallyVisitor) throws(Failure) -> R
    ) throws(Failure) -> R {
        named.removeAll(keepingCapacity: true)
        named.append(contentsOf: repeatElement(false, count: strings.count))
        return try counts.withUnsafeMutableBufferPointer { (counts) throws(Failure) in
            try named.withUnsafeMutableBufferPointer { (named) throws(Failure) in
                var visitor = EventTallyVisitor(counts: counts, named: named)
                return try body(&visitor)
            }
        }
    }

    /// Counts the records of `block`, replacing what the tally held: the same counts as the walk over the block's
    /// bytes, for blocks built otherwise (JSON Lines, events already read one at a time).
    mutating func count(_ block: borrowing EventBlock) {
        removeAll()
        strings.append(contentsOf: block.strings)
        withVisitor { (visitor) in
            for (i, record) in block.records.enumerated() {
                visitor.event(i, kind: record.kind, tag: record.tag, fields: record.fields)
                if record.hasScene { visitor.scene(i, record.scene) }
            }
        }
        eventCount = block.count
    }
}

extension EventBlockDecoder {
    /// Checks every event of `content` as ``decode(_:into:)`` does, failing at the same byte with the same
    /// message, but only counts them into `tally` (replacing what it held): no record is written, and the
    /// integer columns are not decoded when they show as a whole that every time is in range.
    mutating func tally(_ content: UnsafeRawBufferPointer, into tally: inout BlockTally) throws(DecodeFailure)
        -> Summary
    {
        tally.removeAll()
        let layout = try EventBlockLayout(content, strings: &tally.strings)
        let strings = tally.strings
        let summary = try tally.withVisitor { (visitor) throws(DecodeFailure) in
            try walk(layout, strings: strings, &visitor)
        }
        tally.eventCount = summary.eventCount
        return summary
    }
}
