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
/// is serialized by swift-protobuf as it is made and written as one `packet` field of the `Trace` message, which is
/// what a Perfetto trace file is: the field's key and length, then the packet.
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
    private var buffer: [UInt8] = []
    private var eventNames: [String: UInt64] = [:]
    private var annotationNames: [String: UInt64] = [:]
    private var categories: [ExportCategory: UInt64] = [:]
    private var sequenceStarted = false
    private var failure: TraceError?

    init(sink: any TraceSink) {
        self.sink = sink
        buffer.reserveCapacity(Self.bufferSize + 4096)
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
        var packet = newPacket()
        packet.sequenceFlags = UInt32(PerfettoTracePacket.SequenceFlags.seqNeedsIncrementalState.rawValue)
        packet.timestamp = UInt64(max(t, 0))
        var event = PerfettoTrackEvent()
        event.type = type
        event.trackUuid = track.uuid
        if let category { event.categoryIids = [intern(category, into: &packet)] }
        if let name {
            if let iid = intern(name, in: &eventNames, into: &packet, as: \.eventNames) {
                event.nameIid = iid
            } else {
                event.name = name
            }
        }
        annotate(&event, with: arguments, into: &packet)
        packet.trackEvent = event
        append(packet)
    }

    private func annotate(_ event: inout PerfettoTrackEvent, with arguments: ExportArguments,
                          into packet: inout PerfettoTracePacket) {
        func add(_ key: String, _ value: ExportValue) {
            event.debugAnnotations.append(annotation(key, value, into: &packet))
        }
        if let index = arguments.index { add("event_index", .int(Int64(index))) }
        if let fields = arguments.event {
            if let scene = fields.scene { add("scene", .string(scene)) }
            if let dur = fields.dur { add("dur", .int(dur)) }
            if let task = fields.task { add("task", .int(task)) }
            if let name = fields.name { add("name", .string(name)) }
            if let phase = fields.phase { add("phase", .string(phase.name)) }
            if let reason = fields.reason { add("reason", .string(reason)) }
            if let pid = fields.pid { add("pid", .int(pid)) }
            for attribute in fields.attrs ?? [] {
                var annotation = annotation("attrs." + attribute.key, nil, into: &packet)
                switch attribute.value {
                case let .string(string): annotation.stringValue = string
                case let .int(number): annotation.intValue = number
                case let .double(number): annotation.doubleValue = number
                case let .bool(flag): annotation.boolValue = flag
                }
                event.debugAnnotations.append(annotation)
            }
        }
        for (key, value) in arguments.extra { add(key, value) }
    }

    private func annotation(_ key: String, _ value: ExportValue?, into packet: inout PerfettoTracePacket) -> PerfettoDebugAnnotation {
        var annotation = PerfettoDebugAnnotation()
        if let iid = intern(key, in: &annotationNames, into: &packet, as: \.debugAnnotationNames) {
            annotation.nameIid = iid
        } else {
            annotation.name = key
        }
        switch value {
        case let .string(string)?: annotation.stringValue = string
        case let .int(number)?: annotation.intValue = number
        case let .bool(flag)?: annotation.boolValue = flag
        case nil: break
        }
        return annotation
    }

    /// The iid of `category`, sent in `packet` the first time.
    private func intern(_ category: ExportCategory, into packet: inout PerfettoTracePacket) -> UInt64 {
        if let iid = categories[category] { return iid }
        let iid = UInt64(categories.count + 1)
        categories[category] = iid
        var entry = PerfettoEventCategory()
        entry.iid = iid
        entry.name = category.rawValue
        packet.internedData.eventCategories.append(entry)
        return iid
    }

    /// The iid of `name` in `table`, sent in `packet` the first time; `nil` once the table is full.
    private func intern<Entry: InternedName>(_ name: String, in table: inout [String: UInt64], into packet: inout PerfettoTracePacket,
                                              as list: WritableKeyPath<PerfettoInternedData, [Entry]>) -> UInt64? {
        if let iid = table[name] { return iid }
        guard table.count < Self.internedLimit else { return nil }
        let iid = UInt64(table.count + 1)
        table[name] = iid
        var entry = Entry()
        entry.iid = iid
        entry.name = name
        packet.internedData[keyPath: list].append(entry)
        return iid
    }

    private func append(_ packet: PerfettoTracePacket) {
        let bytes: [UInt8]
        do {
            bytes = try packet.serializedBytes()
        } catch {
            // Only a message with a missing required field fails, and these have none.
            fatalError("a Perfetto packet did not serialize: \(error)")
        }
        buffer.append(Self.packetKey)
        var length = UInt64(bytes.count)
        while length >= 0x80 {
            buffer.append(UInt8(truncatingIfNeeded: length) | 0x80)
            length >>= 7
        }
        buffer.append(UInt8(length))
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.bufferSize { write() }
    }

    private func write() {
        defer { buffer.removeAll(keepingCapacity: true) }
        guard failure == nil, !buffer.isEmpty else { return }
        do {
            try buffer.withBytes { (raw) throws(TraceError) in try sink.write(raw) }
        } catch {
            failure = error
        }
    }
}

/// An interned name of Perfetto's `InternedData`: an iid and a string.
protocol InternedName {
    init()
    var iid: UInt64 { get set }
    var name: String { get set }
}

extension PerfettoEventName: InternedName {}
extension PerfettoDebugAnnotationName: InternedName {}
