import LifetraceCore
import LifetraceFormat

/// Writes `TracePacket`s holding `TrackEvent`s straight in the protobuf wire format, field by field in the order
/// swift-protobuf writes the generated `PerfettoTracePacket` (ascending field numbers), so the bytes are those of
/// the message; and interns names as ``PerfettoEncoder`` says. A value type, so that its buffers are mutated in
/// place without the run-time exclusivity checks a class's stored properties take on every access.
struct PerfettoWireWriter {
    /// The largest a scratch array is kept between packets.
    static let scratchLimit = 1 << 16

    /// `TrackEvent.Type` (Schemas/perfetto/perfetto_trace.proto): the kinds of track event the export writes.
    enum EventType: UInt8 {
        case sliceBegin = 1
        case sliceEnd = 2
        case instant = 3
    }

    /// `TracePacket.SequenceFlags` (Schemas/perfetto/perfetto_trace.proto): the packet starts the sequence's
    /// incremental state afresh.
    static let incrementalStateCleared: UInt8 = 1
    /// `TracePacket.SequenceFlags`: the packet's interned ids refer to the sequence's incremental state.
    static let needsIncrementalState: UInt8 = 2

    /// The packets written, each a `Trace.packet` field.
    var buffer = ByteWriter()
    /// Whether a packet was written: the first one says the sequence's incremental state starts there.
    var sequenceStarted = false
    var eventNames: [String: UInt64] = [:]
    var annotationNames: [String: UInt64] = [:]
    /// The iids of the categories by ``ExportCategory/ordinal`` (0: not interned yet).
    var categoryIids = [UInt64](repeating: 0, count: ExportCategory.allCases.count)
    var categoryCount = 0
    /// The iids of the numbered event names by ``ExportName/key`` (0: not interned yet).
    var nameIids = [UInt64](repeating: 0, count: ExportName.keyCount)
    /// The iids of the attributes' annotation names (`attrs.<key>`) by the attribute's key: each name built and
    /// hashed once. Only interned names are kept, so it holds ``PerfettoEncoder/internedLimit`` keys at most.
    private var attributeIids: [String: UInt64] = [:]
    /// The iids of the names the writer knows by number (0: not interned yet): ``fixedKeys`` by ``FixedKey``, then
    /// the extra values' names by ``ExportExtra/ordinal`` (``beginAnnotation(slot:name:)``): each spelled and looked
    /// up once.
    private var keyIids = [UInt64](repeating: 0, count: PerfettoWireWriter.fixedKeys.count + ExportExtra.kinds.count)
    /// The track event being written, its annotation being written, and the interned data of its packet: reused
    /// scratch arrays, which give the nested messages' lengths.
    var event = ByteWriter()
    private var annotation = ByteWriter()
    private var annotationName: String?
    /// The annotation of the scene written last.
    private var scenes = WrittenTextMemo()
    var interned = ByteWriter()
    /// A process's or track's name or label, spelled here before it is written (its length first).
    var text = ByteWriter()

    /// Appends the two packets of a slice whose end is known (its beginning, then its end) to ``buffer``; returns
    /// whether ``buffer`` holds ``ExportOutput/bufferSize`` bytes or more, to be written.
    mutating func slice(
        on track: ExportTrack, name: ExportName, category: ExportCategory, from start: Int64, to end: Int64,
        _ arguments: ExportArguments
    ) -> Bool {
        appendTrackEvent(.sliceBegin, on: track, name: name, category: category, at: start, arguments)
        appendSliceEnd(on: track, at: end)
        return buffer.count >= ExportOutput.bufferSize
    }

    /// Appends a `TracePacket` holding a `TrackEvent` to ``buffer``, with `notes` after its arguments if any;
    /// returns whether it is full, as ``slice(on:name:category:from:to:_:)`` does.
    mutating func trackEvent(
        _ type: EventType, on track: ExportTrack, name: ExportName?,
        category: ExportCategory?, at t: Int64, _ arguments: ExportArguments,
        notes: [ExportNote]? = nil
    ) -> Bool {
        appendTrackEvent(type, on: track, name: name, category: category, at: t, arguments, notes: notes)
        return buffer.count >= ExportOutput.bufferSize
    }

    private mutating func appendTrackEvent(
        _ type: EventType, on track: ExportTrack, name: ExportName?,
        category: ExportCategory?, at t: Int64, _ arguments: ExportArguments,
        notes: [ExportNote]? = nil
    ) {
        if notes == nil, arguments.isEmpty, let name, let category,
            appendBareTrackEvent(type, on: track, name: name, category: category, at: t)
        {
            return
        }
        // The first packet (a track descriptor) has cleared the incremental state; every event needs it.
        sequenceStarted = true
        // A track event of megabytes (a scene's id) leaves no scratch buffer of its size behind.
        event.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
        interned.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
        // TrackEvent.category_iids (3, not packed).
        let categoryIid = category.map { intern($0) } ?? 0
        let nameIid = name.map { intern(eventName: $0) } ?? 0
        if category != nil {
            event.write(atMost: 11) { cursor in
                cursor.put(3 << 3)
                cursor.varint(categoryIid)
            }
        }
        annotate(with: arguments, notes: notes)
        // TrackEvent.type (9), name_iid (10), track_uuid (11), name (23).
        event.write(atMost: 24) { cursor in
            cursor.put(9 << 3)
            cursor.varint(UInt64(type.rawValue))
            if nameIid != 0 {
                cursor.put(10 << 3)
                cursor.varint(nameIid)
            }
            cursor.put(11 << 3)
            cursor.varint(track.uuid)
        }
        if let name, nameIid == 0 {
            event.append(0xBA)
            event.append(0x01)
            event.appendLengthPrefixed(name.text)
        }
        // TracePacket: timestamp (8), trusted_packet_sequence_id (10), track_event (11), interned_data (12),
        // sequence_flags (13).
        let timestamp = UInt64(max(t, 0))
        let flags = UInt64(Self.needsIncrementalState)
        var size =
            1 + timestamp.varintSize + 2 + 1 + UInt64(event.count).varintSize + event.count + 1 + flags.varintSize
        if interned.count > 0 { size += 1 + UInt64(interned.count).varintSize + interned.count }
        // The whole packet in one run: its header, the event, the interned data, the flags.
        let event = self.event
        let interned = self.interned
        buffer.write(atMost: Self.packetHeaderSize + event.count + 1 + 10 + interned.count + 1 + 10) { cursor in
            Self.packetHeader(size: size, timestamp: timestamp, eventCount: event.count, to: &cursor)
            event.withBytes { cursor.bytes($0) }
            if interned.count > 0 {
                cursor.put(12 << 3 | 2)
                cursor.varint(UInt64(interned.count))
                interned.withBytes { cursor.bytes($0) }
            }
            cursor.put(13 << 3)
            cursor.varint(flags)
        }
    }

    /// The names of the annotations every event may have, in ``FixedKey`` order.
    private static let fixedKeys =
        ["event_index"]
        + [
            EventFields.Name.scene, EventFields.Name.dur, EventFields.Name.task, EventFields.Name.name,
            EventFields.Name.phase, EventFields.Name.reason, EventFields.Name.pid,
        ].map(\.description)
        + ["end_event_index"]

    /// An annotation name of ``fixedKeys``: its iid is kept by position, not looked up by name.
    private enum FixedKey: Int {
        case eventIndex, scene, dur, task, name, phase, reason, pid, endEventIndex
    }

    /// Appends `arguments`, then `notes`, as `TrackEvent.debug_annotations`. A slice's end names its event's index
    /// `end_event_index` (``ExportArguments/endsSlice``).
    private mutating func annotate(with arguments: ExportArguments, notes: [ExportNote]?) {
        if let index = arguments.index { add(arguments.endsSlice ? .endEventIndex : .eventIndex, int: Int64(index)) }
        if let fields = arguments.event {
            fields.forEachField { field in
                switch field {
                case let .scene(text): addScene(text)
                case let .dur(number): add(.dur, int: number)
                case let .task(number): add(.task, int: number)
                case let .name(text): add(.name, string: text)
                case let .phase(phase): add(.phase, string: phase.name)
                case let .reason(text): add(.reason, string: text)
                case let .pid(number): add(.pid, int: number)
                }
            }
            fields.forEachAttribute { key, value in
                beginAnnotation(attribute: key)
                switch value {
                case let .string(string): annotationValue(.string(string))
                case let .int(number): annotationValue(.int(number))
                case let .double(number):
                    annotation.append(5 << 3 | 1)
                    withUnsafeBytes(of: number.bitPattern.littleEndian) { annotation.appendBytes($0) }
                case let .bool(flag): annotationValue(.bool(flag))
                }
                endAnnotation()
            }
        }
        arguments.extras.forEach { extra in add(extra) }
        if let notes {
            for note in notes { add(named: note.key, .string(note.text)) }
        }
    }

    /// Appends the annotation of an extra value, its name's iid kept by its kind once interned.
    private mutating func add(_ extra: ExportExtra) {
        beginAnnotation(slot: Self.fixedKeys.count + extra.ordinal, name: extra.key.description)
        annotationValue(extra.value)
        endAnnotation()
    }

    /// Appends an annotation named `key`, interned by its text.
    private mutating func add(named key: StaticString, _ value: ExportValue) {
        beginAnnotation(named: key.description)
        annotationValue(value)
        endAnnotation()
    }

    /// Appends `value` to the annotation begun last: DebugAnnotation's string_value (6), int_value (4) or
    /// bool_value (2).
    private mutating func annotationValue(_ value: ExportValue) {
        switch value {
        case let .string(string):
            annotation.append(6 << 3 | 2)
            annotation.appendLengthPrefixed(string)
        case let .int(number):
            annotation.append(4 << 3)
            annotation.appendVarint(UInt64(bitPattern: number))
        case let .bool(flag):
            annotation.append(2 << 3)
            annotation.append(flag ? 1 : 0)
        }
    }

    /// Appends an integer annotation named by one of ``fixedKeys``: straight into the event once its name is
    /// interned, its length known beforehand.
    private mutating func add(_ key: FixedKey, int value: Int64) {
        let iid = keyIids[key.rawValue]
        guard iid != 0 else { return addNamingFirst(key, .int(value)) }
        // DebugAnnotation: name_iid (1), int_value (4).
        let number = UInt64(bitPattern: value)
        let length = 1 + iid.varintSize + 1 + number.varintSize
        event.write(atMost: 2 + length) { cursor in
            cursor.put(4 << 3 | 2)
            cursor.put(UInt8(length))
            cursor.put(1 << 3)
            cursor.varint(iid)
            cursor.put(4 << 3)
            cursor.varint(number)
        }
    }

    /// Appends the annotation of an event's scene: copied when the scene is the one written last.
    private mutating func addScene(_ text: String) {
        guard !scenes.append(text, to: &event) else { return }
        let named = keyIids[FixedKey.scene.rawValue] != 0
        let start = event.count
        add(.scene, string: text)
        if named { scenes.keep(text, written: event, from: start) }
    }

    /// Appends a string annotation named by one of ``fixedKeys``, as ``add(_:int:)`` does.
    private mutating func add(_ key: FixedKey, string value: String) {
        let iid = keyIids[key.rawValue]
        guard iid != 0 else { return addNamingFirst(key, .string(value)) }
        // DebugAnnotation: name_iid (1), string_value (6).
        var value = value
        value.withUTF8 { utf8 in
            let count = UInt64(utf8.count)
            let length = UInt64(1 + iid.varintSize + 1 + count.varintSize) + count
            event.write(atMost: 1 + 10 + 1 + 10 + 1 + 10) { cursor in
                cursor.put(4 << 3 | 2)
                cursor.varint(length)
                cursor.put(1 << 3)
                cursor.varint(iid)
                cursor.put(6 << 3 | 2)
                cursor.varint(count)
            }
            event.appendBytes(UnsafeRawBufferPointer(utf8))
        }
    }

    /// Appends an annotation named by one of ``fixedKeys`` whose name is not interned yet (or cannot be).
    private mutating func addNamingFirst(_ key: FixedKey, _ value: ExportValue) {
        beginAnnotation(key)
        annotationValue(value)
        endAnnotation()
    }

    /// Starts a `DebugAnnotation` named by one of ``fixedKeys``.
    private mutating func beginAnnotation(_ key: FixedKey) {
        beginAnnotation(slot: key.rawValue, name: Self.fixedKeys[key.rawValue])
    }

    /// Starts a `DebugAnnotation` named `name`, whose iid ``keyIids`` keeps at `slot` once it is interned.
    private mutating func beginAnnotation(slot: Int, name: @autoclosure () -> String) {
        let iid = keyIids[slot]
        guard iid == 0 else { return beginAnnotation(iid: iid) }
        if let interned = beginAnnotation(named: name()) { keyIids[slot] = interned }
    }

    /// Starts a `DebugAnnotation` named `key`; returns its iid, or `nil` if the interned names are full and the
    /// name is written in the annotation.
    @discardableResult
    private mutating func beginAnnotation(named key: String) -> UInt64? {
        guard let iid = intern(annotationName: key) else {
            annotation.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
            annotationName = key
            return nil
        }
        beginAnnotation(iid: iid)
        return iid
    }

    /// Starts a `DebugAnnotation` named `attrs.<key>`, the name of the attribute `key`: built and looked up once
    /// per key while the interned names have room.
    private mutating func beginAnnotation(attribute key: String) {
        if let iid = attributeIids[key] { return beginAnnotation(iid: iid) }
        if let interned = beginAnnotation(named: "attrs." + key) { attributeIids[key] = interned }
    }

    /// Starts a `DebugAnnotation` whose name is interned as `iid`.
    private mutating func beginAnnotation(iid: UInt64) {
        annotation.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
        annotationName = nil
        // DebugAnnotation.name_iid (1).
        annotation.append(1 << 3)
        annotation.appendVarint(iid)
    }

    /// Ends the annotation begun last (its inline name, DebugAnnotation.name (10), last) and appends it to the event.
    private mutating func endAnnotation() {
        if let annotationName {
            annotation.append(10 << 3 | 2)
            annotation.appendLengthPrefixed(annotationName)
        }
        event.append(4 << 3 | 2)
        event.appendVarint(UInt64(annotation.count))
        event.append(annotation)
        // An annotation of megabytes (a scene's id) is let go once copied, before the event is copied in turn.
        annotation.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
    }
}
