import LifetraceCore
import LifetraceFormat
import SwiftProtobuf

/// Perfetto's own trace format (protobuf `TracePacket`s with `TrackEvent`s), written as it comes: a process
/// track per traced process, a child track per lane, slices as `TYPE_SLICE_BEGIN`/`TYPE_SLICE_END` pairs,
/// instants as `TYPE_INSTANT`, with every event's fields as debug annotations.
///
/// Names, categories and annotation names are interned on one packet sequence (each sent once, in the first
/// packet that uses it; a name past ``PerfettoEncoder/internedLimit`` distinct ones is written inline, so that
/// memory stays bounded whatever the trace names). Timestamps are the trace's own nanoseconds, exact. Each packet
/// is written as one `packet` field of the `Trace` message, which is what a Perfetto trace file is: the field's key
/// and length, then the packet. Track descriptors (a few per process) are serialized by swift-protobuf from the
/// generated messages; track events, one or two per event, are written straight in the wire format into reused
/// scratch arrays, byte for byte what swift-protobuf writes for the same `PerfettoTracePacket` (the tests decode
/// them with the generated types and compare).
final class PerfettoEncoder: ExportEncoder {
    /// The bytes gathered before a write.
    static let bufferSize = 1 << 20
    /// `Trace.packet`'s key: field 1, length-delimited.
    static let packetKey: UInt8 = 1 << 3 | 2
    /// The most distinct event and annotation names interned; later ones are written inline.
    static let internedLimit = 1 << 16
    /// The one packet sequence of the file.
    static let sequenceID: UInt32 = 1

    private var sink: any TraceSink
    /// The bytes to write, and what writes track events into them.
    private var wire = PerfettoWireWriter()
    private var sequenceStarted = false
    private var failure: TraceError?

    init(sink: any TraceSink) {
        self.sink = sink
        wire.buffer.reserve(Self.bufferSize + 4096)
    }

    func start(origin: Int64) {}

    func declare(_ process: ExportProcess) {
        var descriptor = PerfettoTrackDescriptor()
        descriptor.uuid = process.uuid
        descriptor.name = process.name
        descriptor.process.pid = process.pid
        descriptor.process.processName = process.name
        descriptor.process.startTimestampNs = process.start
        descriptor.process.processLabels = process.labels
        var packet = newPacket()
        packet.trackDescriptor = descriptor
        append(packet)
    }

    func declare(_ track: ExportTrack) {
        var descriptor = PerfettoTrackDescriptor()
        descriptor.uuid = track.uuid
        descriptor.parentUuid = track.processUUID
        descriptor.name = track.name
        var packet = newPacket()
        packet.trackDescriptor = descriptor
        append(packet)
    }

    func slice(on track: ExportTrack, name: String, category: ExportCategory, from start: Int64, to end: Int64,
               _ arguments: ExportArguments) {
        trackEvent(.sliceBegin, on: track, name: name, category: category, at: start, arguments)
        trackEvent(.sliceEnd, on: track, name: nil, category: nil, at: end, ExportArguments())
    }

    func begin(on track: ExportTrack, name: String, category: ExportCategory, at t: Int64, _ arguments: ExportArguments) {
        trackEvent(.sliceBegin, on: track, name: name, category: category, at: t, arguments)
    }

    func end(on track: ExportTrack, at t: Int64, _ arguments: ExportArguments) {
        trackEvent(.sliceEnd, on: track, name: nil, category: nil, at: t, arguments)
    }

    func instant(on track: ExportTrack, name: String, category: ExportCategory, at t: Int64, _ arguments: ExportArguments) {
        trackEvent(.instant, on: track, name: name, category: category, at: t, arguments)
    }

    func finish(_ summary: ExportSummary) throws(TraceError) {
        write()
        if let failure { throw failure }
        try sink.flush()
    }

    // MARK: - Packets

    /// A packet on the file's sequence; the first one says the sequence's incremental state starts there.
    private func newPacket() -> PerfettoTracePacket {
        var packet = PerfettoTracePacket()
        packet.trustedPacketSequenceID = Self.sequenceID
        if !sequenceStarted {
            packet.sequenceFlags = UInt32(PerfettoTracePacket.SequenceFlags.seqIncrementalStateCleared.rawValue)
            sequenceStarted = true
        }
        return packet
    }

    private func trackEvent(_ type: PerfettoTrackEvent.TypeEnum, on track: ExportTrack, name: String?,
                            category: ExportCategory?, at t: Int64, _ arguments: ExportArguments) {
        // The first packet (a track descriptor) has cleared the incremental state; every event needs it.
        sequenceStarted = true
        wire.trackEvent(type, on: track, name: name, category: category, at: t, arguments)
        if wire.buffer.count >= Self.bufferSize { write() }
    }

    private func append(_ packet: PerfettoTracePacket) {
        let bytes = packet.serialized
        wire.buffer.append(Self.packetKey)
        wire.buffer.appendVarint(UInt64(bytes.count))
        guard bytes.count < Self.bufferSize else {
            // A packet of megabytes (a scene's id) goes straight to the file, not through a buffer of its size.
            write()
            bytes.withUnsafeBytes { write($0) }
            return
        }
        bytes.withUnsafeBytes { wire.buffer.appendBytes($0) }
        if wire.buffer.count >= Self.bufferSize { write() }
    }

    private func write() {
        wire.buffer.withBytes { write($0) }
        // A track event of megabytes (a scene's id) leaves no buffer of its size behind.
        wire.buffer.removeAll(keepingCapacityUpTo: 4 * Self.bufferSize + 4096)
    }

    private func write(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil, !bytes.isEmpty else { return }
        do {
            try sink.write(bytes)
        } catch {
            failure = error
        }
    }
}

/// Writes `TracePacket`s holding `TrackEvent`s straight in the protobuf wire format, field by field in the order
/// swift-protobuf writes the generated `PerfettoTracePacket` (ascending field numbers), so the bytes are those of
/// the message; and interns names as ``PerfettoEncoder`` says. A value type, so that its buffers are mutated in
/// place without the run-time exclusivity checks a class's stored properties take on every access.
struct PerfettoWireWriter {
    /// The largest a scratch array is kept between packets.
    static let scratchLimit = 1 << 16

    /// The packets written, each a `Trace.packet` field.
    var buffer = ByteBuffer()
    private var eventNames: [String: UInt64] = [:]
    private var annotationNames: [String: UInt64] = [:]
    /// The iids of the categories by ``ExportCategory/ordinal`` (0: not interned yet).
    private var categoryIids = [UInt64](repeating: 0, count: ExportCategory.allCases.count)
    private var categoryCount = 0
    /// The iids of ``fixedKeys`` (0: not interned yet).
    private var fixedIids = [UInt64](repeating: 0, count: PerfettoWireWriter.fixedKeys.count)
    /// The track event being written, its annotation being written, and the interned data of its packet: reused
    /// scratch arrays, which give the nested messages' lengths.
    private var event = ByteBuffer()
    private var annotation = ByteBuffer()
    private var annotationName: String?
    private var interned = ByteBuffer()

    /// Appends a `TracePacket` holding a `TrackEvent` to ``buffer``.
    mutating func trackEvent(_ type: PerfettoTrackEvent.TypeEnum, on track: ExportTrack, name: String?,
                            category: ExportCategory?, at t: Int64, _ arguments: ExportArguments) {
        // A track event of megabytes (a scene's id) leaves no scratch buffer of its size behind.
        event.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
        interned.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
        // TrackEvent.category_iids (3, not packed).
        if let category {
            event.append(3 << 3)
            event.appendVarint(intern(category))
        }
        var nameIid: UInt64 = 0
        if let name { nameIid = intern(eventName: name) ?? 0 }
        annotate(with: arguments)
        // TrackEvent.type (9), name_iid (10), track_uuid (11), name (23).
        event.append(9 << 3)
        event.appendVarint(UInt64(type.rawValue))
        if nameIid != 0 {
            event.append(10 << 3)
            event.appendVarint(nameIid)
        }
        event.append(11 << 3)
        event.appendVarint(track.uuid)
        if let name, nameIid == 0 {
            event.append(0xBA)
            event.append(0x01)
            event.appendLengthPrefixed(name)
        }
        // TracePacket: timestamp (8), trusted_packet_sequence_id (10), track_event (11), interned_data (12),
        // sequence_flags (13).
        let timestamp = UInt64(max(t, 0))
        let flags = UInt64(PerfettoTracePacket.SequenceFlags.seqNeedsIncrementalState.rawValue)
        var size = 1 + timestamp.varintSize + 2 + 1 + UInt64(event.count).varintSize + event.count + 1 + flags.varintSize
        if !interned.isEmpty { size += 1 + UInt64(interned.count).varintSize + interned.count }
        buffer.append(PerfettoEncoder.packetKey)
        buffer.appendVarint(UInt64(size))
        buffer.append(8 << 3)
        buffer.appendVarint(timestamp)
        buffer.append(10 << 3)
        buffer.append(UInt8(PerfettoEncoder.sequenceID))
        buffer.append(11 << 3 | 2)
        buffer.appendVarint(UInt64(event.count))
        buffer.append(event)
        if !interned.isEmpty {
            buffer.append(12 << 3 | 2)
            buffer.appendVarint(UInt64(interned.count))
            buffer.append(interned)
        }
        buffer.append(13 << 3)
        buffer.appendVarint(flags)
    }

    /// The names of the annotations every event may have, in ``FixedKey`` order.
    private static let fixedKeys = ["event_index", "scene", "dur", "task", "name", "phase", "reason", "pid"]

    /// An annotation name of ``fixedKeys``: its iid is kept by position, not looked up by name.
    private enum FixedKey: Int {
        case eventIndex, scene, dur, task, name, phase, reason, pid
    }

    /// Appends `arguments` as `TrackEvent.debug_annotations`.
    private mutating func annotate(with arguments: ExportArguments) {
        if let index = arguments.index { add(.eventIndex, int: Int64(index)) }
        if let fields = arguments.event {
            if let scene = fields.scene { add(.scene, string: scene) }
            if let dur = fields.dur { add(.dur, int: dur) }
            if let task = fields.task { add(.task, int: task) }
            if let name = fields.name { add(.name, string: name) }
            if let phase = fields.phase { add(.phase, string: phase.name) }
            if let reason = fields.reason { add(.reason, string: reason) }
            if let pid = fields.pid { add(.pid, int: pid) }
            if let attrs = fields.attrs {
                for attribute in attrs {
                    beginAnnotation(named: "attrs." + attribute.key)
                    switch attribute.value {
                    case let .string(string): annotationValue(string: string)
                    case let .int(number): annotationValue(int: number)
                    case let .double(number):
                        annotation.append(5 << 3 | 1)
                        withUnsafeBytes(of: number.bitPattern.littleEndian) { annotation.appendBytes($0) }
                    case let .bool(flag): annotationValue(bool: flag)
                    }
                    endAnnotation()
                }
            }
        }
        for (key, value) in arguments.extra {
            beginAnnotation(named: key)
            switch value {
            case let .string(string): annotationValue(string: string)
            case let .int(number): annotationValue(int: number)
            case let .bool(flag): annotationValue(bool: flag)
            }
            endAnnotation()
        }
    }

    private mutating func add(_ key: FixedKey, int value: Int64) {
        beginAnnotation(key)
        annotationValue(int: value)
        endAnnotation()
    }

    private mutating func add(_ key: FixedKey, string value: String) {
        beginAnnotation(key)
        annotationValue(string: value)
        endAnnotation()
    }

    /// Starts a `DebugAnnotation` named by one of ``fixedKeys``.
    private mutating func beginAnnotation(_ key: FixedKey) {
        annotation.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
        annotationName = nil
        var iid = fixedIids[key.rawValue]
        if iid == 0 {
            guard let interned = intern(annotationName: Self.fixedKeys[key.rawValue]) else {
                annotationName = Self.fixedKeys[key.rawValue]
                return
            }
            iid = interned
            fixedIids[key.rawValue] = iid
        }
        // DebugAnnotation.name_iid (1).
        annotation.append(1 << 3)
        annotation.appendVarint(iid)
    }

    /// Starts a `DebugAnnotation` named `key`.
    private mutating func beginAnnotation(named key: String) {
        annotation.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
        annotationName = nil
        if let iid = intern(annotationName: key) {
            annotation.append(1 << 3)
            annotation.appendVarint(iid)
        } else {
            annotationName = key
        }
    }

    private mutating func annotationValue(bool flag: Bool) {
        annotation.append(2 << 3)
        annotation.append(flag ? 1 : 0)
    }

    private mutating func annotationValue(int number: Int64) {
        annotation.append(4 << 3)
        annotation.appendVarint(UInt64(bitPattern: number))
    }

    private mutating func annotationValue(string: String) {
        annotation.append(6 << 3 | 2)
        annotation.appendLengthPrefixed(string)
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

    /// The iid of `category`, sent in the packet's interned data (`event_categories`, 1) the first time.
    private mutating func intern(_ category: ExportCategory) -> UInt64 {
        let ordinal = category.ordinal
        if categoryIids[ordinal] != 0 { return categoryIids[ordinal] }
        categoryCount += 1
        let iid = UInt64(categoryCount)
        categoryIids[ordinal] = iid
        appendInterned(entries: 1, iid: iid, name: category.rawValue)
        return iid
    }

    /// The iid of the event name `name`, sent in the packet's interned data (`event_names`, 2) the first time;
    /// `nil` once the table is full.
    private mutating func intern(eventName name: String) -> UInt64? {
        if let iid = eventNames[name] { return iid }
        guard eventNames.count < PerfettoEncoder.internedLimit else { return nil }
        let iid = UInt64(eventNames.count + 1)
        eventNames[name] = iid
        appendInterned(entries: 2, iid: iid, name: name)
        return iid
    }

    /// The iid of the annotation name `name`, sent in the packet's interned data (`debug_annotation_names`, 3)
    /// the first time; `nil` once the table is full.
    private mutating func intern(annotationName name: String) -> UInt64? {
        if let iid = annotationNames[name] { return iid }
        guard annotationNames.count < PerfettoEncoder.internedLimit else { return nil }
        let iid = UInt64(annotationNames.count + 1)
        annotationNames[name] = iid
        appendInterned(entries: 3, iid: iid, name: name)
        return iid
    }

    /// Appends an `EventCategory`, `EventName` or `DebugAnnotationName` (iid 1, name 2) to the interned data.
    private mutating func appendInterned(entries: UInt8, iid: UInt64, name: String) {
        let nameLength = name.utf8.count
        interned.append(entries << 3 | 2)
        interned.appendVarint(UInt64(1 + iid.varintSize + 1 + UInt64(nameLength).varintSize + nameLength))
        interned.append(1 << 3)
        interned.appendVarint(iid)
        interned.append(2 << 3 | 2)
        interned.appendLengthPrefixed(name)
    }
}

extension PerfettoTracePacket {
    /// The packet in the wire format, as swift-protobuf serializes it.
    var serialized: [UInt8] {
        do {
            return try serializedBytes()
        } catch {
            // Only a message with a missing required field fails, and these have none.
            fatalError("a Perfetto packet did not serialize: \(error)")
        }
    }

    /// The packet swift-protobuf decodes from `bytes`.
    init(decoding bytes: [UInt8]) throws {
        try self.init(serializedBytes: bytes)
    }
}

extension ExportCategory {
    /// The category's position in `allCases`.
    var ordinal: Int {
        switch self {
        case .callback: 0
        case .state: 1
        case .task: 2
        case .process: 3
        case .system: 4
        case .marker: 5
        case .finding: 6
        }
    }
}

extension UInt64 {
    /// The bytes of the value as a protobuf varint.
    @inline(__always) var varintSize: Int { (64 - (self | 1).leadingZeroBitCount + 6) / 7 }
}
