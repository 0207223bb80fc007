import LifetraceFormat

/// The packets written in one run each (``appendPacket(_:on:categoryIid:nameIid:at:)``), their lengths counted
/// beforehand rather than taken from a scratch buffer: a slice's end, and a track event with no arguments whose names
/// are interned already. The bytes are those the general
/// path (``PerfettoWireWriter/trackEvent(_:on:name:category:at:_:notes:)``) writes for the same event, which the tests
/// compare with the generated message's encoding.
extension PerfettoWireWriter {
    /// Appends the packet of a slice's end with nothing but its track: what ``appendTrackEvent(_:on:name:category:at:_:notes:)``
    /// writes for it, in one run.
    mutating func appendSliceEnd(on track: ExportTrack, at t: Int64) {
        appendPacket(.sliceEnd, on: track, categoryIid: 0, nameIid: 0, at: t)
    }

    /// Appends the packet of a track event with no arguments whose name and category are interned already (most
    /// state stretches): what ``appendTrackEvent(_:on:name:category:at:_:notes:)`` writes for it, in one run with no
    /// scratch copy; returns `false`, having written nothing, if a name is not interned yet.
    @inline(__always)
    mutating func appendBareTrackEvent(
        _ type: EventType, on track: ExportTrack, name: ExportName,
        category: ExportCategory, at t: Int64
    ) -> Bool {
        guard name.key >= 0, name.key < nameIids.count else { return false }
        let nameIid = nameIids[name.key]
        let categoryIid = categoryIids[category.ordinal]
        guard nameIid != 0, categoryIid != 0 else { return false }
        appendPacket(type, on: track, categoryIid: categoryIid, nameIid: nameIid, at: t)
        return true
    }

    /// Appends a packet whose track event holds its category's and name's iids (each left out when 0), its type and
    /// its track, and nothing else, in one run of at most ``packetHeaderSize`` + 46 bytes.
    @inline(__always)
    private mutating func appendPacket(
        _ type: EventType, on track: ExportTrack, categoryIid: UInt64,
        nameIid: UInt64, at t: Int64
    ) {
        let timestamp = UInt64(max(t, 0))
        let typeValue = UInt64(type.rawValue)
        // TrackEvent: category_iids (3), type (9), name_iid (10), track_uuid (11).
        var eventCount = 1 + typeValue.varintSize + 1 + track.uuid.varintSize
        if categoryIid != 0 { eventCount += 1 + categoryIid.varintSize }
        if nameIid != 0 { eventCount += 1 + nameIid.varintSize }
        // TracePacket: timestamp (8), trusted_packet_sequence_id (10), track_event (11), sequence_flags (13).
        let size = 1 + timestamp.varintSize + 2 + 1 + UInt64(eventCount).varintSize + eventCount + 2
        buffer.write(atMost: Self.packetHeaderSize + 4 * 11 + 2) { cursor in
            Self.packetHeader(size: size, timestamp: timestamp, eventCount: eventCount, to: &cursor)
            if categoryIid != 0 {
                cursor.put(3 << 3)
                cursor.varint(categoryIid)
            }
            cursor.put(9 << 3)
            cursor.varint(typeValue)
            if nameIid != 0 {
                cursor.put(10 << 3)
                cursor.varint(nameIid)
            }
            cursor.put(11 << 3)
            cursor.varint(track.uuid)
            cursor.put(13 << 3)
            cursor.put(Self.needsIncrementalState)
        }
        sequenceStarted = true
    }

    /// The most bytes ``packetHeader(size:timestamp:eventCount:to:)`` writes.
    static let packetHeaderSize = 1 + 10 + 1 + 10 + 2 + 1 + 10

    /// Writes a `Trace.packet` field's key and length (`size`), then the start of its `TracePacket`: timestamp (8),
    /// trusted_packet_sequence_id (10) and the key and length (`eventCount`) of its track_event (11).
    @inline(__always)
    static func packetHeader(size: Int, timestamp: UInt64, eventCount: Int, to cursor: inout OutputCursor) {
        cursor.put(PerfettoEncoder.packetKey)
        cursor.varint(UInt64(size))
        cursor.put(8 << 3)
        cursor.wideVarint(timestamp)
        cursor.put(10 << 3)
        cursor.put(UInt8(PerfettoEncoder.sequenceID))
        cursor.put(11 << 3 | 2)
        cursor.varint(UInt64(eventCount))
    }
}
