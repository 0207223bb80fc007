import LifetraceCore

/// Decodes the content of one data frame back into events.
///
/// Strings are validated as UTF-8 once per block; records then refer to them by index, so decoding an event
/// copies no string and allocates nothing. The block's layout (``EventBlockLayout``) and its events are read by
/// one walk (``walk(_:strings:_:)``), generic over what receives each event: records of an ``EventBlock``
/// (``decode(_:into:)``), or only counts (``tally(_:into:)``).
struct EventBlockDecoder {
    /// The minor version of the file: record kinds unknown to this library are skipped only when it is newer.
    var fileMinorVersion: UInt8

    /// The kind of every tag, and the fields it requires and must not carry.
    private let kindRules = EventKindRules.shared
    /// The decoded deltas, then the decoded durations and a zero, of the block being decoded.
    private var values: [UInt64] = []

    init(fileMinorVersion: UInt8) {
        self.fileMinorVersion = fileMinorVersion
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
                throw DecodeFailure(
                    offset: 1, message: "block starts at t=\(firstT), before the previous block's end \(previousEnd)")
            }
        }
    }

    /// Decodes every event of `content` into `block`, replacing what it held. That time does not go back
    /// from the previous block is for the reader to check, in order (``Summary/checkStart(after:)``).
    mutating func decode(_ content: UnsafeRawBufferPointer, into block: inout EventBlock) throws(DecodeFailure)
        -> Summary
    {
        // The records, extras and attributes are moved out of the block and back, so no uniqueness test goes
        // through the block per event; the records keep their count, as every one is written whole.
        var records = block.records
        var writer = EventRecordWriter(extras: block.extras, attributes: block.attributes)
        block.records = []
        block.extras = []
        block.attributes = []
        defer {
            block.records = records
            block.extras = writer.extras
            block.attributes = writer.attributes
        }
        block.removeAll()
        writer.removeAll()
        let layout = try EventBlockLayout(content, strings: &block.strings)
        let count = layout.count
        if records.count < count {
            records.append(contentsOf: repeatElement(EventRecord(t: 0, kind: .heartbeat), count: count - records.count))
        } else {
            records.removeLast(records.count - count)
        }
        let strings = block.strings
        let summary = try records.withUnsafeMutableBufferPointer { (rows) throws(DecodeFailure) in
            writer.rows = rows
            defer { writer.rows = UnsafeMutableBufferPointer(start: nil, count: 0) }
            return try walk(layout, strings: strings, &writer)
        }
        if summary.skippedUnknown > 0 {
            // Events of kinds newer than this library: read past by the walk, dropped here.
            var kept = 0
            for i in 0..<count where kindRules.kind(layout.kinds[i]) != nil {
                records[kept] = records[i]
                kept += 1
            }
            records.removeLast(count - kept)
        }
        return summary
    }

    /// Walks every event of the block `layout` locates, checking each and handing its parts to `visitor`, and
    /// returns what the block holds. `strings` is the block's string table.
    ///
    /// The integer columns are checked whole first. A visitor that reads times gets them from the columns
    /// decoded into ``values``: the deltas, the durations and a zero read by the events after the last one with
    /// a duration. Another gets none, and the columns are not decoded, when they show as a whole that no time can
    /// leave its range; otherwise every event's time is checked as for the first.
    mutating func walk<Visitor: EventBlockVisitor>(
        _ layout: EventBlockLayout, strings: [String], _ visitor: inout Visitor
    ) throws(DecodeFailure) -> Summary {
        let count = layout.count
        let durationCount = layout.durationCount
        let firstT = layout.firstT
        try layout.deltas.validate()
        try layout.durations.validate()
        let wholeEnd = Visitor.readsTimes ? nil : layout.endIfTimesFit()
        let checksEachTime = wholeEnd == nil
        let stringLimit = UInt64(layout.stringCount)
        let kindRules = self.kindRules
        let fileMinorVersion = self.fileMinorVersion
        let kinds = layout.kinds
        let kindsStart = layout.kindsStart
        let fieldsStart = layout.fieldsStart
        var presence = layout.presence
        var fields = layout.fields
        var values = self.values
        self.values = []
        defer { self.values = values }
        let needed = checksEachTime ? count + durationCount + 1 : 1
        if values.count < needed {
            values.append(contentsOf: repeatElement(0, count: needed - values.count))
        }
        var skipped = 0
        var lastT = firstT
        var attributeCount = 0
        try values.withUnsafeMutableBufferPointer { (values) throws(DecodeFailure) in
            let deltaValues = values.baseAddress!
            let durationValues = deltaValues + (checksEachTime ? count : 0)
            if checksEachTime {
                layout.deltas.decode(into: deltaValues)
                layout.durations.decode(into: durationValues)
                durationValues[durationCount] = 0
            }
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
                if let kind = kindRules.kind(tag) {
                    if kindRules.rule(tag).isBroken(by: present) {
                        guard kind.requiredFields.isSubset(of: present) else {
                            let missing = kind.requiredFields.subtracting(present).names.joined(separator: ", ")
                            throw DecodeFailure(
                                offset: kindsStart + i, message: "\(kind.name) event \(i) lacks \(missing)")
                        }
                        throw DecodeFailure(offset: kindsStart + i, message: "\(kind.name) event \(i) has a label")
                    }
                    visitor.event(i, kind: kind, tag: tag, fields: present)
                } else {
                    // A kind newer than this library: read past here, not reported.
                    guard fileMinorVersion > FormatConstants.minorVersion else {
                        throw DecodeFailure(offset: kindsStart + i, message: "unknown event kind tag \(tag)")
                    }
                    visitor.unknownEvent(i, fields: present)
                    skipped += 1
                }
                let has = present.contains(.dur) ? 1 : 0
                if checksEachTime {
                    // The timestamp, a running sum of the deltas.
                    let delta = deltaValues[i]
                    let (sum, overflow) = t.addingReportingOverflow(Int64(bitPattern: delta))
                    guard delta <= UInt64(Int64.max), !overflow else {
                        throw DecodeFailure(offset: kindsStart + i, message: "timestamp of event \(i) overflows")
                    }
                    t = sum
                    // The duration, taken with no branch: the next one if the event has one, else nothing.
                    let dur = durationValues[min(durationsUsed, durationCount)] & (0 &- UInt64(has))
                    // The handler's end, t + dur, must fit too (t is not negative here, so neither is max - t).
                    guard dur <= UInt64(bitPattern: Int64.max &- t) else {
                        throw DecodeFailure(
                            offset: fieldsStart, message: "duration of event \(i) ends past the signed 64-bit range")
                    }
                    visitor.time(i, t: t, dur: Int64(bitPattern: dur))
                }
                durationsUsed &+= has
                // The other fields.
                let rest = present.subtracting(.dur)
                if rest == .scene {
                    // Most callbacks name their scene and nothing else.
                    visitor.scene(i, try Self.string(&fields, limit: stringLimit))
                } else if !rest.isEmpty {
                    var extra = EventExtras()
                    let start = fields.absolutePosition
                    try Self.readFields(
                        rest, of: i, into: &extra, &fields, strings: stringLimit, table: strings,
                        &visitor, attributeCount: &attributeCount)
                    // As every writer requires: `custom.` alone names no event.
                    if rest.contains(.label), strings[Int(extra.label)].isEmpty {
                        throw DecodeFailure(offset: start, message: "custom event \(i) has an empty label")
                    }
                    if !rest.isDisjoint(with: EventRecord.extraFields) { visitor.extras(i, extra) }
                }
            }
            guard durationsUsed == durationCount else {
                throw DecodeFailure(
                    offset: fieldsStart,
                    message: "\(Plural.count(durationCount, "duration")) for "
                        + "\(Plural.count(durationsUsed, "event")) with one")
            }
            lastT = wholeEnd ?? t
        }
        guard presence.isAtEnd, fields.isAtEnd else {
            throw DecodeFailure(
                offset: fieldsStart,
                message: "columns hold more data than \(Plural.count(count, "event")) "
                    + Plural.noun(count, "uses", plural: "use"))
        }
        return Summary(firstT: firstT, lastT: lastT, eventCount: count - skipped, skippedUnknown: skipped)
    }

    /// A string index, which must be below `limit` (the block's number of strings).
    @inline(__always)
    private static func string(_ cursor: inout ByteCursor, limit: UInt64) throws(DecodeFailure)
        -> EventRecord.StringIndex
    {
        let start = cursor.absolutePosition
        let index = try cursor.readVarint()
        guard index < limit else {
            throw DecodeFailure(
                offset: start, message: "string index \(index) out of range (\(Plural.count(limit, "string")))")
        }
        return EventRecord.StringIndex(truncatingIfNeeded: index)  // below the string count, an Int32
    }

    /// Reads the fields of the field stream that `present` lists (all but `dur`), in their order, of event `i`:
    /// the scene and phase to `visitor`, the others into `extra`, the attributes to `visitor` (counted in
    /// `attributeCount`, the block's so far).
    @inline(__always)
    private static func readFields<Visitor: EventBlockVisitor>(
        _ present: EventFields,
        of i: Int,
        into extra: inout EventExtras,
        _ cursor: inout ByteCursor,
        strings limit: UInt64,
        table: [String],
        _ visitor: inout Visitor,
        attributeCount: inout Int
    ) throws(DecodeFailure) {
        if present.contains(.scene) { visitor.scene(i, try string(&cursor, limit: limit)) }
        if present.contains(.task) { extra.task = try cursor.readZigzag() }
        if present.contains(.name) { extra.name = try string(&cursor, limit: limit) }
        if present.contains(.phase) {
            let start = cursor.absolutePosition
            guard let phase = ScenePhase(rawValue: try cursor.readByte()) else {
                throw DecodeFailure(offset: start, message: "unknown scene phase")
            }
            visitor.phase(i, phase)
        }
        if present.contains(.reason) { extra.reason = try string(&cursor, limit: limit) }
        if present.contains(.pid) { extra.pid = try cursor.readZigzag() }
        if present.contains(.label) { extra.label = try string(&cursor, limit: limit) }
        if present.contains(.attrs) {
            extra.attributeStart = Int32(truncatingIfNeeded: attributeCount)
            let count = try readAttributes(&cursor, strings: limit, table: table, to: &visitor)
            extra.attributeCount = Int32(count)
            attributeCount += count
        }
    }

    /// Reads an `attrs` field, handing each attribute to `visitor`; returns how many it held. Keys are unique
    /// within an event (the JSON Lines reader refuses a duplicate too): the first eight are compared with one
    /// another in place, any after them through a set, which only such an event allocates.
    private static func readAttributes<Visitor: EventBlockVisitor>(
        _ cursor: inout ByteCursor, strings limit: UInt64, table: [String], to visitor: inout Visitor
    ) throws(DecodeFailure) -> Int {
        let count = try cursor.readCount(limit: cursor.remaining / 2, "attribute count")
        var firstKeys: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0, 0, 0, 0)
        var moreKeys: Set<String> = []
        for index in 0..<count {
            let keyStart = cursor.absolutePosition
            let key = try string(&cursor, limit: limit)
            let repeated = withUnsafeMutableBytes(of: &firstKeys) { raw in
                let earlier = raw.bindMemory(to: Int32.self)
                guard index >= 8 else {
                    defer { earlier[index] = key }
                    return earlier.prefix(index).contains { $0 == key || table[Int($0)] == table[Int(key)] }
                }
                if moreKeys.isEmpty { moreKeys = Set(earlier.map { table[Int($0)] }) }
                return !moreKeys.insert(table[Int(key)]).inserted
            }
            if repeated { throw DecodeFailure(offset: keyStart, message: "duplicate attribute \"\(table[Int(key)])\"") }
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
            visitor.attribute(RecordAttribute(key: key, value: value))
        }
        return count
    }
}
