/// One data frame as the index lists it.
package struct IndexEntry: Hashable, Sendable {
    /// The frame's byte offset in the file.
    package var offset: Int64
    /// The timestamp of the frame's first event.
    package var firstT: Int64
    /// The number of events in the frame.
    package var eventCount: Int64

    /// Creates an entry.
    package init(offset: Int64, firstT: Int64, eventCount: Int64) {
        self.offset = offset
        self.firstT = firstT
        self.eventCount = eventCount
    }
}

/// The index frame: a zstd skippable frame (`0x184D2A51`) written by a clean close, whose payload is `LTIX`,
/// a varint frame count and, per data frame, varints for its offset, first timestamp and event count.
enum IndexFrame {
    static func encode(_ entries: [IndexEntry]) -> [UInt8] {
        var payload = FormatConstants.indexPayloadMagic
        payload.appendVarint(UInt64(entries.count))
        for entry in entries {
            payload.appendVarint(UInt64(entry.offset))
            payload.appendVarint(UInt64(entry.firstT))
            payload.appendVarint(UInt64(entry.eventCount))
        }
        return SkippableFrame.encode(magic: FormatConstants.indexFrameMagic, payload: payload)
    }

    static func decode(_ payload: UnsafeRawBufferPointer) throws(DecodeFailure) -> [IndexEntry] {
        var cursor = ByteCursor(payload)
        let magic = try cursor.readBytes(4)
        guard magic.elementsEqual(FormatConstants.indexPayloadMagic) else {
            throw DecodeFailure(offset: 0, message: "index frame does not start with LTIX")
        }
        let count = try cursor.readCount(limit: payload.count / 3, "index entry count")
        var entries: [IndexEntry] = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            entries.append(
                IndexEntry(
                    offset: try cursor.readNonNegative(), firstT: try cursor.readNonNegative(),
                    eventCount: try cursor.readNonNegative()))
        }
        guard cursor.isAtEnd else { throw DecodeFailure(offset: cursor.position, message: "bytes after the index") }
        return entries
    }
}
