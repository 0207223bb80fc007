import LifetraceFormat

extension PerfettoWireWriter {
    /// `TracePacket.track_descriptor`'s key (field 60, length-delimited) as a varint's two bytes.
    private static let trackDescriptorKey: (UInt8, UInt8) = (0xE2, 0x03)

    /// Appends a `TracePacket` holding the `TrackDescriptor` of `process`'s own track: its uuid, name, and
    /// `ProcessDescriptor` (pid, name, start, labels). Returns whether ``buffer`` is full, as
    /// ``trackEvent(_:on:name:category:at:_:)`` does.
    mutating func declare(_ process: ExportProcess) -> Bool {
        // TrackDescriptor: uuid (1), name (2), process (3); the name's bytes written once, for it and the process's.
        text.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
        process.appendName(to: &text)
        event.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
        event.append(1 << 3)
        event.appendVarint(process.uuid)
        event.append(2 << 3 | 2)
        event.appendVarint(UInt64(text.count))
        event.append(text)
        // ProcessDescriptor: pid (1), process_name (6), start_timestamp_ns (7), process_labels (8).
        interned.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
        interned.append(1 << 3)
        interned.appendVarint(UInt64(bitPattern: Int64(process.pid)))
        interned.append(6 << 3 | 2)
        interned.appendVarint(UInt64(text.count))
        interned.append(text)
        interned.append(7 << 3)
        interned.appendVarint(UInt64(bitPattern: process.start))
        for position in 0 ..< process.labelCount {
            text.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
            process.appendLabel(position, to: &text)
            interned.append(8 << 3 | 2)
            interned.appendVarint(UInt64(text.count))
            interned.append(text)
        }
        text.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
        event.append(3 << 3 | 2)
        event.appendVarint(UInt64(interned.count))
        event.append(interned)
        interned.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
        appendDescriptorPacket()
        return buffer.count >= PerfettoEncoder.bufferSize
    }

    /// Appends a `TracePacket` holding the `TrackDescriptor` of `track`: its uuid, `name` and parent (its
    /// process's track). Returns whether ``buffer`` is full, as for a process.
    mutating func declare(_ track: ExportTrack, name: ExportTrackName) -> Bool {
        // TrackDescriptor: uuid (1), name (2), parent_uuid (5).
        text.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
        name.appendUTF8(to: &text)
        event.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
        event.append(1 << 3)
        event.appendVarint(track.uuid)
        event.append(2 << 3 | 2)
        event.appendVarint(UInt64(text.count))
        event.append(text)
        text.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
        event.append(5 << 3)
        event.appendVarint(track.processUUID)
        appendDescriptorPacket()
        return buffer.count >= PerfettoEncoder.bufferSize
    }

    /// Appends the packet around the descriptor in ``event``: trusted_packet_sequence_id (10), sequence_flags (13)
    /// on the sequence's first packet, track_descriptor (60).
    private mutating func appendDescriptorPacket() {
        let first = !sequenceStarted
        sequenceStarted = true
        let flags = UInt64(PerfettoTracePacket.SequenceFlags.seqIncrementalStateCleared.rawValue)
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
