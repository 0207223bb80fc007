import LifetraceFormat

extension PerfettoWireWriter {
    /// `TracePacket.track_descriptor`'s key (field 60, length-delimited) as a varint's two bytes.
    private static let trackDescriptorKey: (UInt8, UInt8) = (0xE2, 0x03)

    /// Appends a `TracePacket` holding the `TrackDescriptor` of `process`'s own track: its uuid, name, and
    /// `ProcessDescriptor` (pid, name, start, labels). Returns whether ``buffer`` is full, as
    /// ``trackEvent(_:on:name:category:at:_:)`` does.
    mutating func declare(_ process: ExportProcess) -> Bool {
        // TrackDescriptor: uuid (1), name (2), process (3); the name's bytes spelled once, for it and the process's.
        text.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
        process.appendName(to: &text)
        beginTrackDescriptor(uuid: process.uuid)
        // ProcessDescriptor: pid (1), process_name (6), start_timestamp_ns (7), process_labels (8).
        interned.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
        interned.append(1 << 3)
        interned.appendVarint(UInt64(bitPattern: Int64(process.pid)))
        Self.append(6 << 3 | 2, lengthDelimited: text, to: &interned)
        interned.append(7 << 3)
        interned.appendVarint(UInt64(bitPattern: process.start))
        for position in 0..<process.labelCount {
            text.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
            process.appendLabel(position, to: &text)
            Self.append(8 << 3 | 2, lengthDelimited: text, to: &interned)
        }
        text.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
        Self.append(3 << 3 | 2, lengthDelimited: interned, to: &event)
        interned.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
        appendDescriptorPacket()
        return buffer.count >= ExportOutput.bufferSize
    }

    /// Appends a `TracePacket` holding the `TrackDescriptor` of `track`: its uuid, `name` and parent (its
    /// process's track). Returns whether ``buffer`` is full, as for a process.
    mutating func declare(_ track: ExportTrack, name: ExportTrackName) -> Bool {
        // TrackDescriptor: uuid (1), name (2), parent_uuid (5).
        text.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
        name.appendUTF8(to: &text)
        beginTrackDescriptor(uuid: track.uuid)
        text.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
        event.append(5 << 3)
        event.appendVarint(track.processUUID)
        appendDescriptorPacket()
        return buffer.count >= ExportOutput.bufferSize
    }

    /// Starts ``event`` as a `TrackDescriptor`: its uuid (1), and its name (2), spelled in ``text``.
    private mutating func beginTrackDescriptor(uuid: UInt64) {
        event.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
        event.append(1 << 3)
        event.appendVarint(uuid)
        Self.append(2 << 3 | 2, lengthDelimited: text, to: &event)
    }

    /// Appends a length-delimited field: its `key`, the length of `bytes`, and `bytes`.
    private static func append(_ key: UInt8, lengthDelimited bytes: ByteWriter, to buffer: inout ByteWriter) {
        buffer.append(key)
        buffer.appendVarint(UInt64(bytes.count))
        buffer.append(bytes)
    }

    /// Appends the packet around the descriptor in ``event``: trusted_packet_sequence_id (10), sequence_flags (13)
    /// on the sequence's first packet, track_descriptor (60).
    private mutating func appendDescriptorPacket() {
        let first = !sequenceStarted
        sequenceStarted = true
        let flags = UInt64(Self.incrementalStateCleared)
        var size = 2 + 2 + UInt64(event.count).varintSize + event.count
        if first { size += 1 + flags.varintSize }
        buffer.append(PerfettoEncoder.packetKey)
        buffer.appendVarint(UInt64(size))
        buffer.append(10 << 3)
        buffer.append(UInt8(PerfettoEncoder.sequenceID))
        if first {
            buffer.append(13 << 3)
            buffer.appendVarint(flags)
        }
        buffer.append(Self.trackDescriptorKey.0)
        buffer.append(Self.trackDescriptorKey.1)
        buffer.appendVarint(UInt64(event.count))
        buffer.append(event)
        // A descriptor of megabytes (an app's name) leaves no scratch buffer of its size behind.
        event.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
    }
}
