import LifetraceCore

/// Decodes the content of one data frame back into events.
///
/// Strings are validated as UTF-8 once per block; records then refer to them by index, so decoding an event
/// copies references, not bytes. The columns are read in step, one event at a time.
struct EventBlockDecoder {
    /// The minor version of the file: record kinds unknown to this library are skipped only when it is newer.
    var fileMinorVersion: UInt8
    private var strings: [String] = []

    /// The kind of every tag, `nil` for tags this version does not know.
    private let kindTable: [EventKind?]
    /// The required fields of every known tag.
    private let requiredTable: [EventFields]

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
    }

    /// Decodes every event of `content`, appending them to `events`.
    ///
    /// - Parameter notBefore: the last timestamp of the previous block; time must not go backwards.
    mutating func decode(
        _ content: UnsafeRawBufferPointer,
        notBefore: Int64,
        into events: inout [LifecycleEvent]
    ) throws(DecodeFailure) -> Summary {
        do {
            return try decodeEach(content, notBefore: notBefore, reserve: { events.reserveCapacity(events.count + $0) }) {
                events.append(copy $0)
            }
        } catch let failure as DecodeFailure {
            throw failure
        } catch {
            preconditionFailure("appending cannot throw")
        }
    }

    /// Decodes every event of `content`, lending each to `body` in turn: the fastest way through a block,
    /// with one event value reused for every record and nothing stored.
    ///
    /// - Throws: ``DecodeFailure`` for damage, or what `body` throws.
    mutating func decodeEach(
        _ content: UnsafeRawBufferPointer,
        notBefore: Int64,
        reserve: (Int) -> Void = { _ in },
        _ body: (borrowing LifecycleEvent) throws -> Void
    ) throws -> Summary {
        var cursor = ByteCursor(content)
        let blockType = try cursor.readByte()
        guard blockType == LifetraceFormat.eventBlockType else {
            throw DecodeFailure(offset: 0, message: "unknown block type \(blockType)")
        }
        let firstT = try cursor.readNonNegative()
        guard firstT >= notBefore else {
            throw DecodeFailure(offset: 1, message: "block starts at t=\(firstT), before the previous block's end \(notBefore)")
        }
        // Each event takes at least 3 bytes (kind, presence, delta length): bound the counts by the size.
        let count = try cursor.readCount(limit: content.count / 3, "event count")
        let stringCount = try cursor.readCount(limit: content.count, "string count")
        strings.removeAll(keepingCapacity: true)
        for _ in 0..<stringCount {
            let length = try cursor.readCount(limit: cursor.remaining, "string length")
            let start = cursor.position
            let bytes = try cursor.readBytes(length)
            guard let string = String(validating: bytes, as: UTF8.self) else {
                throw DecodeFailure(offset: start, message: "string is not valid UTF-8")
            }
            strings.append(string)
        }
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
        var deltas = try SplitIntegerColumnDecoder(count: count, planeSizes: deltaPlanes, from: &cursor, base: content)
        var durations = try SplitIntegerColumnDecoder(count: durationCount, planeSizes: durationPlanes,
                                                      from: &cursor, base: content)
        let fieldsStart = cursor.position
        var fields = ByteCursor(UnsafeRawBufferPointer(try cursor.readBytes(fieldsSize)), origin: fieldsStart)
        guard cursor.isAtEnd else {
            throw DecodeFailure(offset: cursor.position, message: "\(cursor.remaining) bytes after the last column")
        }

        reserve(count)
        var t = firstT
        var skipped = 0
        var event = LifecycleEvent(t: firstT, kind: .heartbeat)
        for i in 0..<count {
            let tag = kinds[i]
            let delta = try deltas.next()
            let (sum, overflow) = t.addingReportingOverflow(Int64(bitPattern: delta))
            guard delta <= UInt64(Int64.max), !overflow else {
                throw DecodeFailure(offset: kindsStart + i, message: "timestamp of event \(i) overflows")
            }
            t = sum
            let presenceAt = presence.absolutePosition
            let bits = try presence.readVarint()
            guard bits & ~UInt64(EventFields.all.rawValue) == 0 else {
                throw DecodeFailure(offset: presenceAt, message: "event \(i) has unknown field bits \(bits)")
            }
            let present = EventFields(rawValue: UInt16(bits))
            event.t = t
            try readFields(present, into: &event, &fields, &durations)
            guard let kind = kindTable[Int(tag)] else {
                guard fileMinorVersion > LifetraceFormat.minorVersion else {
                    throw DecodeFailure(offset: kindsStart + i, message: "unknown event kind tag \(tag)")
                }
                skipped += 1
                continue
            }
            event.kind = kind
            guard requiredTable[Int(tag)].isSubset(of: present) else {
                let missing = kind.requiredFields.subtracting(present).names.joined(separator: ", ")
                throw DecodeFailure(offset: kindsStart + i, message: "\(kind.name) event \(i) lacks \(missing)")
            }
            guard kind == .custom || !present.contains(.label) else {
                throw DecodeFailure(offset: kindsStart + i, message: "\(kind.name) event \(i) has a label")
            }
            try body(event)
        }
        guard presence.isAtEnd, fields.isAtEnd, deltas.isExhausted, durations.isExhausted else {
            throw DecodeFailure(offset: fieldsStart, message: "columns hold more data than \(count) events use")
        }
        return Summary(firstT: firstT, lastT: t, eventCount: count - skipped, skippedUnknown: skipped)
    }

    @inline(__always)
    private func string(_ cursor: inout ByteCursor) throws(DecodeFailure) -> String {
        let start = cursor.absolutePosition
        let index = try cursor.readVarint()
        guard index < UInt64(strings.count) else {
            throw DecodeFailure(offset: start, message: "string index \(index) out of range (\(strings.count) strings)")
        }
        return strings[Int(index)]
    }

    @inline(__always)
    private func readFields(
        _ present: EventFields,
        into event: inout LifecycleEvent,
        _ cursor: inout ByteCursor,
        _ durations: inout SplitIntegerColumnDecoder
    ) throws(DecodeFailure) {
        // The event value is reused: every field is set, to its value or to nil.
        if present.isEmpty {
            event.clearFields()
            return
        }
        event.scene = present.contains(.scene) ? try string(&cursor) : nil
        if present.contains(.dur) {
            let dur = try durations.next()
            guard dur <= UInt64(Int64.max) else {
                throw DecodeFailure(offset: cursor.absolutePosition, message: "duration exceeds the signed 64-bit range")
            }
            event.dur = Int64(dur)
        } else {
            event.dur = nil
        }
        event.task = present.contains(.task) ? try cursor.readZigzag() : nil
        event.name = present.contains(.name) ? try string(&cursor) : nil
        if present.contains(.phase) {
            let start = cursor.absolutePosition
            guard let phase = ScenePhase(rawValue: try cursor.readByte()) else {
                throw DecodeFailure(offset: start, message: "unknown scene phase")
            }
            event.phase = phase
        } else {
            event.phase = nil
        }
        event.reason = present.contains(.reason) ? try string(&cursor) : nil
        event.pid = present.contains(.pid) ? try cursor.readZigzag() : nil
        event.label = present.contains(.label) ? try string(&cursor) : nil
        event.attrs = present.contains(.attrs) ? try readAttributes(&cursor) : nil
    }

    private func readAttributes(_ cursor: inout ByteCursor) throws(DecodeFailure) -> [Attribute] {
        let count = try cursor.readCount(limit: cursor.remaining / 2, "attribute count")
        var attributes: [Attribute] = []
        attributes.reserveCapacity(count)
        for _ in 0..<count {
            let key = try string(&cursor)
            let tagStart = cursor.absolutePosition
            switch AttributeTypeTag(rawValue: try cursor.readByte()) {
            case .string: attributes.append(Attribute(key, .string(try string(&cursor))))
            case .int: attributes.append(Attribute(key, .int(try cursor.readZigzag())))
            case .double:
                let value = Double(bitPattern: try cursor.readUInt64LE())
                guard value.isFinite else { throw DecodeFailure(offset: tagStart, message: "attribute is not finite") }
                attributes.append(Attribute(key, .double(value)))
            case .boolFalse: attributes.append(Attribute(key, .bool(false)))
            case .boolTrue: attributes.append(Attribute(key, .bool(true)))
            case nil: throw DecodeFailure(offset: tagStart, message: "unknown attribute type")
            }
        }
        return attributes
    }
}
