/// What ``BinaryEventSource`` reads a data frame's content into, reused from frame to frame: the records of an
/// ``EventBlock``, or only a ``BlockTally``. Sendable: with several reading threads, contents are filled on one
/// and read on another.
protocol FrameContents: Sendable {
    /// Empty contents.
    init()
    /// Whether the last frame read held no event to report.
    var holdsNoEvent: Bool { get }
    /// Reads the content of one data frame with `decoder`, replacing what these contents held.
    ///
    /// - Throws: ``DecodeFailure`` at the first byte that does not decode.
    mutating func read(_ content: UnsafeRawBufferPointer, with decoder: inout EventBlockDecoder) throws(DecodeFailure)
        -> EventBlockDecoder.Summary
}

extension EventBlock: FrameContents {
    var holdsNoEvent: Bool { count == 0 }

    mutating func read(_ content: UnsafeRawBufferPointer, with decoder: inout EventBlockDecoder) throws(DecodeFailure)
        -> EventBlockDecoder.Summary
    {
        try decoder.decode(content, into: &self)
    }
}

extension BlockTally: FrameContents {
    var holdsNoEvent: Bool { eventCount == 0 }

    mutating func read(_ content: UnsafeRawBufferPointer, with decoder: inout EventBlockDecoder) throws(DecodeFailure)
        -> EventBlockDecoder.Summary
    {
        try decoder.tally(content, into: &self)
    }
}
