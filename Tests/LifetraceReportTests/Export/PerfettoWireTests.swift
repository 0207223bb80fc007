import Foundation
import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat
import LifetraceTestSupport
import LifetraceZstd
import Testing

@testable import LifetraceReport

/// The Perfetto encoder writes track events straight in the wire format; the generated swift-protobuf messages
/// are the reference. Each packet it writes decodes, with the generated `PerfettoTracePacket`, to the packet the
/// message-based encoding (below, as the encoder was before) builds for the same export, and is byte for byte
/// what swift-protobuf serializes for it.
@Suite struct PerfettoWireTests {
    let directory = TemporaryDirectory()

    /// The packets of a Perfetto trace file: each `Trace.packet` field's bytes.
    static func packets(of file: [UInt8]) throws -> [[UInt8]] {
        var packets: [[UInt8]] = []
        var offset = 0
        while offset < file.count {
            #expect(file[offset] == PerfettoEncoder.packetKey)
            offset += 1
            var length = 0
            var shift = 0
            while true {
                let byte = file[offset]
                offset += 1
                length |= Int(byte & 0x7F) << shift
                shift += 7
                if byte < 0x80 { break }
            }
            try #require(offset + length <= file.count)
            packets.append(Array(file[offset..<offset + length]))
            offset += length
        }
        return packets
    }

    /// Compares the export of `path` with the message-based encoding of the same export, packet by packet.
    func expectSamePackets(_ path: String) throws {
        let sink = CollectingSink()
        _ = try TraceExport.export(try TraceReader(path: path), file: path, format: .perfetto, to: sink)
        let oracle = MessagePerfettoEncoder()
        let exporter = TraceExporter(file: path, header: try TraceReader(path: path).header, encoder: oracle)
        _ = try TraceAnalyzer.analyze(try TraceReader(path: path), file: path, observer: exporter)
        try exporter.finish()

        let written = try Self.packets(of: sink.bytes)
        #expect(written.count == oracle.packets.count, "\(path)")
        for (index, (bytes, expected)) in zip(written, oracle.packets).enumerated() {
            let decoded = try PerfettoTracePacket(decoding: bytes)
            guard decoded == expected, bytes == expected.serialized else {
                Issue.record("\(path): packet \(index) is \(decoded), expected \(expected)")
                return
            }
        }
    }

    @Test(arguments: PackagePaths.sampleTraces(extension: "lifetrace"))
    func everyPacketOfASampleIsTheMessagesEncoding(path: String) throws {
        try expectSamePackets(path)
    }

    @Test(.integration, arguments: [1, 2, 3])
    func everyPacketOfARandomWalkIsTheMessagesEncoding(seed: UInt64) throws {
        let path = directory.file("walk-\(seed).lifetrace")
        let simulator = Simulator(configuration: .init(scenario: .random, seed: seed, minimumEvents: 20_000))
        let writer = try BinaryTraceWriter(sink: try FileSink(path: path), header: simulator.header)
        try simulator.run { try writer.append($0) }
        try writer.close()
        try expectSamePackets(path)
    }

    /// Random events of every kind with every field: awkward strings, attributes of every type, extreme values.
    @Test(arguments: [11, 12])
    func everyPacketOfRandomEventsIsTheMessagesEncoding(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let path = directory.file("random-\(seed).lifetrace")
        let writer = try BinaryTraceWriter(sink: try FileSink(path: path), header: RandomTrace.header(using: &rng))
        for event in RandomTrace.events(count: 5_000, using: &rng) { try writer.append(event) }
        try writer.close()
        try expectSamePackets(path)
    }
}

/// The Perfetto encoding built from the generated messages, one `PerfettoTracePacket` per track descriptor and
/// track event: the reference the direct wire-format writer is compared with.
final class MessagePerfettoEncoder: ExportEncoder {
    private(set) var packets: [PerfettoTracePacket] = []
    private var eventNames: [String: UInt64] = [:]
    private var annotationNames: [String: UInt64] = [:]
    private var categories: [ExportCategory: UInt64] = [:]
    private var sequenceStarted = false

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
        packets.append(packet)
    }

    func declare(_ track: ExportTrack, name: ExportTrackName) {
        var descriptor = PerfettoTrackDescriptor()
        descriptor.uuid = track.uuid
        descriptor.parentUuid = track.processUUID
        descriptor.name = name.text
        var packet = newPacket()
        packet.trackDescriptor = descriptor
        packets.append(packet)
    }

    func slice(
        on track: ExportTrack, name: ExportName, category: ExportCategory, from start: Int64, to end: Int64,
        _ arguments: ExportArguments
    ) {
        trackEvent(.sliceBegin, on: track, name: name, category: category, at: start, arguments)
        trackEvent(.sliceEnd, on: track, name: nil, category: nil, at: end, ExportArguments())
    }

    func begin(
        on track: ExportTrack, name: ExportName, category: ExportCategory, at t: Int64, _ arguments: ExportArguments
    ) {
        trackEvent(.sliceBegin, on: track, name: name, category: category, at: t, arguments)
    }

    func end(on track: ExportTrack, at t: Int64, _ arguments: ExportArguments) {
        trackEvent(.sliceEnd, on: track, name: nil, category: nil, at: t, arguments)
    }

    func instant(
        on track: ExportTrack, name: ExportName, category: ExportCategory, at t: Int64, _ arguments: ExportArguments
    ) {
        trackEvent(.instant, on: track, name: name, category: category, at: t, arguments)
    }

    func instant(
        on track: ExportTrack, name: ExportName, category: ExportCategory, at t: Int64, _ arguments: ExportArguments,
        notes: [ExportNote]
    ) {
        trackEvent(.instant, on: track, name: name, category: category, at: t, arguments, notes: notes)
    }

    func finish(_ summary: ExportSummary) throws(TraceError) {}

    private func newPacket() -> PerfettoTracePacket {
        var packet = PerfettoTracePacket()
        packet.trustedPacketSequenceID = PerfettoEncoder.sequenceID
        if !sequenceStarted {
            packet.sequenceFlags = UInt32(PerfettoTracePacket.SequenceFlags.seqIncrementalStateCleared.rawValue)
            sequenceStarted = true
        }
        return packet
    }

    private func trackEvent(
        _ type: PerfettoTrackEvent.TypeEnum, on track: ExportTrack, name: ExportName?,
        category: ExportCategory?, at t: Int64, _ arguments: ExportArguments, notes: [ExportNote] = []
    ) {
        var packet = newPacket()
        packet.sequenceFlags = UInt32(PerfettoTracePacket.SequenceFlags.seqNeedsIncrementalState.rawValue)
        packet.timestamp = UInt64(max(t, 0))
        var event = PerfettoTrackEvent()
        event.type = type
        event.trackUuid = track.uuid
        if let category { event.categoryIids = [intern(category, into: &packet)] }
        if let name = name?.text {
            if let iid = intern(name, in: &eventNames, into: &packet, as: \.eventNames) {
                event.nameIid = iid
            } else {
                event.name = name
            }
        }
        annotate(&event, with: arguments, ending: type == .sliceEnd, into: &packet)
        for note in notes {
            event.debugAnnotations.append(annotation("\(note.key)", .string(note.text), into: &packet))
        }
        packet.trackEvent = event
        packets.append(packet)
    }

    private func annotate(
        _ event: inout PerfettoTrackEvent, with arguments: ExportArguments, ending: Bool,
        into packet: inout PerfettoTracePacket
    ) {
        func add(_ key: String, _ value: ExportValue) {
            event.debugAnnotations.append(annotation(key, value, into: &packet))
        }
        if let index = arguments.index { add(ending ? "end_event_index" : "event_index", .int(Int64(index))) }
        if let fields = arguments.event {
            if let scene = fields.scene { add("scene", .string(scene)) }
            if let dur = fields.dur { add("dur", .int(dur)) }
            if let task = fields.task { add("task", .int(task)) }
            if let name = fields.name { add("name", .string(name)) }
            if let phase = fields.phase { add("phase", .string(phase.name)) }
            if let reason = fields.reason { add("reason", .string(reason)) }
            if let pid = fields.pid { add("pid", .int(pid)) }
            fields.forEachAttribute { key, value in
                var annotation = annotation("attrs." + key, nil, into: &packet)
                switch value {
                case let .string(string): annotation.stringValue = string
                case let .int(number): annotation.intValue = number
                case let .double(number): annotation.doubleValue = number
                case let .bool(flag): annotation.boolValue = flag
                }
                event.debugAnnotations.append(annotation)
            }
        }
        arguments.extras.forEach { add("\($0.key)", $0.value) }
    }

    private func annotation(_ key: String, _ value: ExportValue?, into packet: inout PerfettoTracePacket)
        -> PerfettoDebugAnnotation
    {
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

    private func intern<Entry: InternedName>(
        _ name: String, in table: inout [String: UInt64], into packet: inout PerfettoTracePacket,
        as list: WritableKeyPath<PerfettoInternedData, [Entry]>
    ) -> UInt64? {
        if let iid = table[name] { return iid }
        guard table.count < PerfettoEncoder.internedLimit else { return nil }
        let iid = UInt64(table.count + 1)
        table[name] = iid
        var entry = Entry()
        entry.iid = iid
        entry.name = name
        packet.internedData[keyPath: list].append(entry)
        return iid
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
