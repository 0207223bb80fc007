import LifetraceCore

/// Decodes the content of one data frame back into events.
///
/// Strings are validated as UTF-8 once per block; records then refer to them by index, so decoding an event
/// copies no string and allocates nothing. The columns are read one after the other, each in a pass of its
/// own over the plain records of an ``EventBlock``.
struct EventBlockDecoder {
    /// The minor version of the file: record kinds unknown to this library are skipped only when it is newer.
    var fileMinorVersion: UInt8

    /// The kind of every tag, `nil` for tags this version does not know.
    private let kindTable: [EventKind?]
    /// The required fields of every known tag.
    private let requiredTable: [EventFields]
    /// The decoded deltas, then the decoded durations and a zero, of the block being decoded.
    private var values: [UInt64] = []

    init(fileMinorVersion: UInt8) {
        self.fileMinorVersion = fileMinorVersion
        var kinds = [EventKind?](repeating: nil, count: 256)
        var required = [EventFields](repeating: [], count: 256)
        for kind in EventKind.allCases {
            kinds[Int(kind.rawValue)] = kind
            required[Int(kind.rawValue)] = kind.requiredFields
        }
        self.kindTable = kinds
        self.requiredTable = required
    }

    /// The result of decoding a block.
    struct Summary {
        var firstT: Int64
        var lastT: Int64
        var eventCount: Int
        var skippedUnknown: Int

        /// Time must not go back across blocks: fails for a block starting before `previousEnd`, the last
        /// timestamp of the block before it (at byte 1, where the block's base time is).
        func checkStart(after previousEnd: Int64) throws(DecodeFailure) {
            guard firstT >= previousEnd else {
                throw DecodeFailure(offset: 1, message: "block starts at t=\(firstT), before the previous block's end \(previousEnd)")
            }
        }
    }

    /// Decodes every event of `content` into `block`, replacing what it held. That time does not go back
    /// from the previous block is for the reader to check, in order (``Summary/checkStart(after:)``).
    mutating func decode(_ content: UnsafeRawBufferPointer, into block: inout EventBlock) throws(DecodeFailure) -> Summary {
        // The records are moved out of the block and back, so no uniqueness test goes through the block per
        // event; they keep their count, as every one is written whole below.
        var records = block.records
        block.records = []
        defer { block.records = records }
        block.removeAll()
        var cursor = ByteCursor(content)
        let blockType = try cursor.readByte()
        guard blockType == FormatConstants.eventBlockType else {
            throw DecodeFailure(offset: 0, message: "unknown block type \(blockType)")
        }
        let firstT = try cursor.readNonNegative()
        // Each event takes at least 3 bytes (kind, presence, delta length): bound the counts by the size.
        let count = try cursor.readCount(limit: min(content.count / 3, FormatConstants.maxEventsPerFrame), "event count")
        let stringCount = try cursor.readCount(limit: content.count, "string count")
        for _ in 0..<stringCount {
            let length = try cursor.readCount(limit: cursor.remaining, "string length")
            let start = cursor.position
            let bytes = try cursor.readBytes(length)
            guard let string = String(validating: bytes, as: UTF8.self) else {
                throw DecodeFailure(offset: start, message: "string is not valid UTF-8")
            }
            block.strings.append(string)
        }
        let stringLimit = UInt64(stringCount)
        let kindTable = self.kindTable
        let requiredTable = self.requiredTable
        let fileMinorVersion = self.fileMinorVersion
        let presenceSize = try cursor.readCount(limit: content.count, "presence stream size")
        let durationCount = try cursor.readCount(limit: count, "duration count")
        var deltaPlanes: [Int] = []
        var durationPlanes: [Int] = []
        for _ in 0..<8 { deltaPlanes.append(try cursor.readCount(limit: count, "plane size")) }
        for _ in 0..<8 { durationPlanes.append(try cursor.readCount(limit: durationCount, "plane size")) }
        let fieldsSize = try cursor.readCount(limit: content.count, "field stream size")

        let kindsStart = cursor.position
        let kinds = try cursor.readBytes(count)
        let presenceStart = cursor.position
        var presence = ByteCursor(UnsafeRawBufferPointer(try cursor.readBytes(presenceSize)), origin: presenceStart)
        let deltas = try SplitIntegerColumnDecoder(count: count, planeSizes: deltaPlanes, from: &cursor, base: content)
        let durations = try SplitIntegerColumnDecoder(count: durationCount, planeSizes: durationPlanes,
                                                      from: &cursor, base: content)
        let fieldsStart = cursor.position
        var fields = ByteCursor(UnsafeRawBufferPointer(try cursor.readBytes(fieldsSize)), origin: fieldsStart)
        guard cursor.isAtEnd else {
            throw DecodeFailure(offset: cursor.position, message: "\(cursor.remaining) bytes after the last column")
        }

        // The integer columns are decoded whole first, into `values`: the deltas, the durations and a zero
        // read by the events after the last one with a duration. Then one pass makes each record, written
        // once, into the block's array (moved out of the block and back, so that no uniqueness test goes
        // through the block per event; it keeps its count, as every record is written whole).
        if records.count < count {
            records.append(contentsOf: repeatElement(EventRecord(t: 0, kind: .heartbeat), count: count - records.count))
        } else {
            records.removeLast(records.count - count)
        }
        try deltas.validate()
        try durations.validate()
        var values = self.values
        self.values = []
        defer { self.values = values }
        if values.count < count + durationCount + 1 {
            values.append(contentsOf: repeatElement(0, count: count + durationCount + 1 - values.count))
        }
        var skipped = 0
        var lastT = firstT
        try records.withUnsafeMutableBufferPointer { (rows) throws(DecodeFailure) in
            try values.withUnsafeMutableBufferPointer { (values) throws(DecodeFailure) in
                let deltaValues = values.baseAddress!
                let durationValues = deltaValues + count
                deltas.decode(into: deltaValues)
                durations.decode(into: durationValues)
                durationValues[durationCount] = 0
                var t = firstT
                var durationsUsed = 0
                for i in 0..<count {
                    // The fields the event carries, and its kind.
                    let presenceAt = presence.absolutePosition
                    let bits = try presence.readVarint()
                    guard bits & ~UInt64(EventFields.all.rawValue) == 0 else {
                        throw DecodeFailure(offset: presenceAt, message: "event \(i) has unknown field bits \(bits)")
                    }
                    let present = EventFields(rawValue: UInt16(bits))
                    let tag = kinds[i]
                    // Each field goes straight to the record in the array: a record put together on the stack
                    // and copied whole is read back before its parts are written, and stalls.
                    if let kind = kindTable[Int(tag)] {
                        guard requiredTable[Int(tag)].isSubset(of: present) else {
                            let missing = kind.requiredFields.subtracting(present).names.joined(separator: ", ")
                            throw DecodeFailure(offset: kindsStart + i, message: "\(kind.name) event \(i) lacks \(missing)")
                        }
                        guard kind == .custom || !present.contains(.label) else {
                            throw DecodeFailure(offset: kindsStart + i, message: "\(kind.name) event \(i) has a label")
                        }
                        rows[i] = EventRecord(kind: kind, tag: tag, fields: present)
                    } else {
                        // A kind newer than this library: read past here, dropped below.
                        guard fileMinorVersion > FormatConstants.minorVersion else {
                            throw DecodeFailure(offset: kindsStart + i, message: "unknown event kind tag \(tag)")
                        }
                        rows[i] = EventRecord(kind: .heartbeat, tag: EventKind.heartbeat.rawValue, fields: present)
                        skipped += 1
                    }
                    // The timestamp, a running sum of the deltas.
                    let delta = deltaValues[i]
                    let (sum, overflow) = t.addingReportingOverflow(Int64(bitPattern: delta))
                    guard delta <= UInt64(Int64.max), !overflow else {
                        throw DecodeFailure(offset: kindsStart + i, message: "timestamp of event \(i) overflows")
                    }
                    t = sum
                    rows[i].t = t
                    // The duration, taken with no branch: the next one if the event has one, else nothing.
                    let has = present.contains(.dur) ? 1 : 0
                    let dur = durationValues[min(durationsUsed, durationCount)] & (0 &- UInt64(has))
                    // The handler's end, t + dur, must fit too (t is not negative here, so neither is max - t).
                    guard dur <= UInt64(bitPattern: Int64.max &- t) else {
                        throw DecodeFailure(offset: fieldsStart, message: "duration of event \(i) ends past the signed 64-bit range")
                    }
                    rows[i].dur = Int64(bitPattern: dur)
                    durationsUsed &+= has
                    // The other fields.
                    let rest = present.subtracting(.dur)
                    if rest == .scene {
                        // Most callbacks name their scene and nothing else.
                        rows[i].scene = try Self.string(&fields, limit: stringLimit)
                    } else if !rest.isEmpty {
                        var extra = EventExtras()
                        let start = fields.absolutePosition
                        try Self.readFields(rest, into: &rows[i], &extra, &fields, strings: stringLimit, &block.attributes)
                        // As every writer requires: `custom.` alone names no event.
                        if rest.contains(.label), block.strings[Int(extra.label)].isEmpty {
                            throw DecodeFailure(offset: start, message: "custom event \(i) has an empty label")
                        }
                        if !rest.isDisjoint(with: EventRecord.extraFields) {
                            rows[i].extra = Int32(truncatingIfNeeded: block.extras.count)
                            block.extras.append(extra)
                        }
                    }
                }
                guard durationsUsed == durationCount else {
                    throw DecodeFailure(offset: fieldsStart, message: "\(durationCount) durations for \(durationsUsed) events with one")
                }
                lastT = t
            }
        }
        guard presence.isAtEnd, fields.isAtEnd else {
            throw DecodeFailure(offset: fieldsStart, message: "columns hold more data than \(count) events use")
        }
        if skipped > 0 {
            // Events of kinds newer than this library: read past above, dropped here.
            var kept = 0
            for i in 0..<count where kindTable[Int(kinds[i])] != nil {
                records[kept] = records[i]
                kept += 1
            }
            records.removeLast(count - kept)
        }
        return Summary(firstT: firstT, lastT: lastT, eventCount: count - skipped, skippedUnknown: skipped)
    }

    /// A string index, which must be below `limit` (the block's number of strings).
    @inline(__always)
    private static func string(_ cursor: inout ByteCursor, limit: UInt64) throws(DecodeFailure) -> EventRecord.StringIndex {
        let start = cursor.absolutePosition
        let index = try cursor.readVarint()
        guard index < limit else {
            throw DecodeFailure(offset: start, message: "string index \(index) out of range (\(limit) strings)")
        }
        return EventRecord.StringIndex(index)
    }

    /// Reads the fields of the field stream that `present` lists (all but `dur`), in their order: the
    /// common ones into `record`, the others into `extra`.
    @inline(__always)
    private static func readFields(
        _ present: EventFields,
        into record: inout EventRecord,
        _ extra: inout EventExtras,
        _ cursor: inout ByteCursor,
        strings limit: UInt64,
        _ attributes: inout [RecordAttribute]
    ) throws(DecodeFailure) {
        if present.contains(.scene) { record.scene = try string(&cursor, limit: limit) }
        if present.contains(.task) { extra.task = try cursor.readZigzag() }
        if present.contains(.name) { extra.name = try string(&cursor, limit: limit) }
        if present.contains(.phase) {
            let start = cursor.absolutePosition
            guard let phase = ScenePhase(rawValue: try cursor.readByte()) else {
                throw DecodeFailure(offset: start, message: "unknown scene phase")
            }
            record.phase = phase
        }
        if present.contains(.reason) { extra.reason = try string(&cursor, limit: limit) }
        if present.contains(.pid) { extra.pid = try cursor.readZigzag() }
        if present.contains(.label) { extra.label = try string(&cursor, limit: limit) }
        if present.contains(.attrs) {
            extra.attributeStart = Int32(truncatingIfNeeded: attributes.count)
            extra.attributeCount = Int32(try readAttributes(&cursor, strings: limit, into: &attributes))
        }
    }

    /// Reads an `attrs` field into `attributes`; returns how many it held.
    private static func readAttributes(
        _ cursor: inout ByteCursor, strings limit: UInt64, into attributes: inout [RecordAttribute]
    ) throws(DecodeFailure) -> Int {
        let count = try cursor.readCount(limit: cursor.remaining / 2, "attribute count")
        for _ in 0..<count {
            let key = try string(&cursor, limit: limit)
            let tagStart = cursor.absolutePosition
            let value: RecordAttributeValue
            switch AttributeTypeTag(rawValue: try cursor.readByte()) {
            case .string: value = .string(try string(&cursor, limit: limit))
            case .int: value = .int(try cursor.readZigzag())
            case .double:
                let number = Double(bitPattern: try cursor.readUInt64LE())
                guard number.isFinite else { throw DecodeFailure(offset: tagStart, message: "attribute is not finite") }
                value = .double(number)
            case .boolFalse: value = .bool(false)
            case .boolTrue: value = .bool(true)
            case nil: throw DecodeFailure(offset: tagStart, message: "unknown attribute type")
            }
            attributes.append(RecordAttribute(key: key, value: value))
        }
        return count
    }
}
