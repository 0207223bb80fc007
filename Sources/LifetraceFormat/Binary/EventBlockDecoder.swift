import LifetraceCore

/// Decodes the content of one data frame back into events.
///
/// Strings are validated as UTF-8 once per block; records then refer to them by index, so decoding an event
/// copies references, not bytes.
struct EventBlockDecoder {
    /// The minor version of the file: record kinds unknown to this library are skipped only when it is newer.
    var fileMinorVersion: UInt8
    private var strings: [String] = []

    init(fileMinorVersion: UInt8) {
        self.fileMinorVersion = fileMinorVersion
    }

    /// The result of decoding a block.
    struct Summary {
        var firstT: Int64
        var lastT: Int64
        var eventCount: Int
        var skippedUnknown: Int
    }

    /// Reads only the block's header: its first timestamp and event count.
    static func peekHeader(_ content: UnsafeRawBufferPointer) throws(DecodeFailure) -> (firstT: Int64, count: Int) {
        var cursor = ByteCursor(content)
        guard try cursor.readByte() == LifetraceFormat.eventBlockType else {
            throw DecodeFailure(offset: 0, message: "not an event block")
        }
        let firstT = try cursor.readNonNegative()
        let count = try cursor.readCount(limit: content.count, "event count")
        return (firstT, count)
    }

    /// Decodes every event of `content`, appending them to `events`.
    ///
    /// - Parameter notBefore: the last timestamp of the previous block; time must not go backwards.
    mutating func decode(
        _ content: UnsafeRawBufferPointer,
        notBefore: Int64,
        into events: inout [LifecycleEvent]
    ) throws(DecodeFailure) -> Summary {
        var cursor = ByteCursor(content)
        let blockType = try cursor.readByte()
        guard blockType == LifetraceFormat.eventBlockType else {
            throw DecodeFailure(offset: 0, message: "unknown block type \(blockType)")
        }
        let firstT = try cursor.readNonNegative()
        guard firstT >= notBefore else {
            throw DecodeFailure(offset: 1, message: "block starts at t=\(firstT), before the previous block's end \(notBefore)")
        }
        // Each record takes at least 3 bytes and each string at least 1: bound the counts by the content size.
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
        events.reserveCapacity(events.count + count)
        var t = firstT
        var skipped = 0
        for _ in 0..<count {
            let recordStart = cursor.position
            let tag = try cursor.readByte()
            let delta = try cursor.readNonNegative()
            let (sum, overflow) = t.addingReportingOverflow(delta)
            guard !overflow else { throw DecodeFailure(offset: recordStart, message: "timestamp overflows") }
            t = sum
            let presenceStart = cursor.position
            let presence = try cursor.readVarint()
            guard presence & ~UInt64(EventFields.all.rawValue) == 0 else {
                throw DecodeFailure(offset: presenceStart, message: "record has unknown field bits \(presence)")
            }
            let fields = EventFields(rawValue: UInt16(presence))
            guard let kind = EventKind(rawValue: tag) else {
                guard fileMinorVersion > LifetraceFormat.minorVersion else {
                    throw DecodeFailure(offset: recordStart, message: "unknown event kind tag \(tag)")
                }
                var ignored = LifecycleEvent(t: t, kind: .custom)
                try readFields(fields, into: &ignored, &cursor)
                skipped += 1
                continue
            }
            var event = LifecycleEvent(t: t, kind: kind)
            try readFields(fields, into: &event, &cursor)
            guard kind.requiredFields.isSubset(of: fields) else {
                let missing = kind.requiredFields.subtracting(fields).names.joined(separator: ", ")
                throw DecodeFailure(offset: recordStart, message: "\(kind.name) record lacks \(missing)")
            }
            guard kind == .custom || !fields.contains(.label) else {
                throw DecodeFailure(offset: recordStart, message: "\(kind.name) record has a label")
            }
            events.append(event)
        }
        guard cursor.isAtEnd else {
            throw DecodeFailure(offset: cursor.position, message: "\(cursor.remaining) bytes after the last record")
        }
        return Summary(firstT: firstT, lastT: t, eventCount: count - skipped, skippedUnknown: skipped)
    }

    @inline(__always)
    private func string(_ cursor: inout ByteCursor) throws(DecodeFailure) -> String {
        let start = cursor.position
        let index = try cursor.readVarint()
        guard index < UInt64(strings.count) else {
            throw DecodeFailure(offset: start, message: "string index \(index) out of range (\(strings.count) strings)")
        }
        return strings[Int(index)]
    }

    @inline(__always)
    private func readFields(
        _ fields: EventFields,
        into event: inout LifecycleEvent,
        _ cursor: inout ByteCursor
    ) throws(DecodeFailure) {
        if fields.isEmpty { return }
        if fields.contains(.scene) { event.scene = try string(&cursor) }
        if fields.contains(.dur) { event.dur = try cursor.readNonNegative() }
        if fields.contains(.task) { event.task = try cursor.readZigzag() }
        if fields.contains(.name) { event.name = try string(&cursor) }
        if fields.contains(.phase) {
            let start = cursor.position
            guard let phase = ScenePhase(rawValue: try cursor.readByte()) else {
                throw DecodeFailure(offset: start, message: "unknown scene phase")
            }
            event.phase = phase
        }
        if fields.contains(.reason) { event.reason = try string(&cursor) }
        if fields.contains(.pid) { event.pid = try cursor.readZigzag() }
        if fields.contains(.label) { event.label = try string(&cursor) }
        if fields.contains(.attrs) { event.attrs = try readAttributes(&cursor) }
    }

    private func readAttributes(_ cursor: inout ByteCursor) throws(DecodeFailure) -> [Attribute] {
        let count = try cursor.readCount(limit: cursor.remaining / 2, "attribute count")
        var attributes: [Attribute] = []
        attributes.reserveCapacity(count)
        for _ in 0..<count {
            let key = try string(&cursor)
            let tagStart = cursor.position
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
