/// Where the parts of one event block are: its header read and checked, its string table validated, and its
/// columns located, ready for the walk over its events (``EventBlockDecoder/walk(_:strings:_:)``).
///
/// See `Schemas/lifetrace-format.md`, "Event block". Every bound is checked here, so that the walk reads the
/// columns with no check but those of their contents.
struct EventBlockLayout {
    /// The timestamp of the first event.
    let firstT: Int64
    /// The number of events.
    let count: Int
    /// The number of strings in the block's table.
    let stringCount: Int
    /// The number of events with a duration, as the block declares it.
    let durationCount: Int
    /// The kind column: one tag per event.
    let kinds: UnsafeBufferPointer<UInt8>
    /// Where the kind column starts in the content, for error positions.
    let kindsStart: Int
    /// The presence column: one varint per event.
    let presence: ByteCursor
    /// The time deltas, one per event.
    let deltas: SplitIntegerColumnDecoder
    /// The durations, one per event that carries one.
    let durations: SplitIntegerColumnDecoder
    /// The field stream: the other fields of every event, in order.
    let fields: ByteCursor
    /// Where the field stream starts in the content, for error positions.
    let fieldsStart: Int

    /// Reads the header of the block `content` holds, appending its strings (validated as UTF-8) to `strings`.
    ///
    /// - Throws: ``DecodeFailure`` at the first byte that breaks the layout.
    init(_ content: UnsafeRawBufferPointer, strings: inout [String]) throws(DecodeFailure) {
        var cursor = ByteCursor(content)
        let blockType = try cursor.readByte()
        guard blockType == FormatConstants.eventBlockType else {
            throw DecodeFailure(offset: 0, message: "unknown block type \(blockType)")
        }
        firstT = try cursor.readNonNegative()
        // Each event takes at least 3 bytes (kind, presence, delta length): bound the counts by the size.
        count = try cursor.readCount(limit: min(content.count / 3, FormatConstants.maxEventsPerFrame), "event count")
        stringCount = try cursor.readCount(limit: content.count, "string count")
        for _ in 0..<stringCount {
            let length = try cursor.readCount(limit: cursor.remaining, "string length")
            let start = cursor.position
            let bytes = try cursor.readBytes(length)
            strings.append(try Self.string(bytes, at: start))
        }
        let presenceSize = try cursor.readCount(limit: content.count, "presence stream size")
        durationCount = try cursor.readCount(limit: count, "duration count")
        var deltaPlanes: [Int] = []
        var durationPlanes: [Int] = []
        for _ in 0..<8 { deltaPlanes.append(try cursor.readCount(limit: count, "plane size")) }
        for _ in 0..<8 { durationPlanes.append(try cursor.readCount(limit: durationCount, "plane size")) }
        let fieldsSize = try cursor.readCount(limit: content.count, "field stream size")

        kindsStart = cursor.position
        kinds = try cursor.readBytes(count)
        let presenceStart = cursor.position
        presence = ByteCursor(UnsafeRawBufferPointer(try cursor.readBytes(presenceSize)), origin: presenceStart)
        deltas = try SplitIntegerColumnDecoder(count: count, planeSizes: deltaPlanes, from: &cursor, base: content)
        durations = try SplitIntegerColumnDecoder(
            count: durationCount, planeSizes: durationPlanes,
            from: &cursor, base: content)
        fieldsStart = cursor.position
        fields = ByteCursor(UnsafeRawBufferPointer(try cursor.readBytes(fieldsSize)), origin: fieldsStart)
        guard cursor.isAtEnd else {
            throw DecodeFailure(offset: cursor.position, message: "\(cursor.remaining) bytes after the last column")
        }
    }

    /// `bytes`, at `start`, as a string, if they are valid UTF-8 (ASCII, nearly every string of a trace, in one pass:
    /// ``Swift/String/init(validUTF8:)``).
    private static func string(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) throws(DecodeFailure) -> String {
        guard let string = String(validUTF8: bytes) else {
            throw DecodeFailure(offset: start, message: "string is not valid UTF-8")
        }
        return string
    }

    /// The block's last timestamp, when the columns as a whole show that no event's timestamp and no handler's
    /// end (t + dur) can leave the signed 64-bit range, so that the walk need not check each event's; `nil` when
    /// they do not show it (the walk then decodes and checks every event's). The columns must be validated.
    ///
    /// The deltas are not negative, so the timestamps only grow: the last, `firstT` plus the sum of the deltas,
    /// bounds them all. Every duration is below 256 to the power of the longest one's byte length.
    func endIfTimesFit() -> Int64? {
        guard let sum = deltas.sum() else { return nil }
        let (end, overflow) = UInt64(firstT).addingReportingOverflow(sum)
        guard !overflow, end <= UInt64(Int64.max) else { return nil }
        let longest = durations.longestLength
        let durationBound: UInt64 = longest >= 8 ? .max : (1 << UInt64(8 * longest)) - 1
        guard durationBound <= UInt64(Int64.max) - end else { return nil }
        return Int64(end)
    }
}
