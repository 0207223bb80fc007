/// The bytes `"pid":P,"tid":T` that put a Chrome JSON event on a track, for the tracks written to lately:
/// kept in one of ``slotCount`` slots by the track's `tid` (unique in an export), so that the events of a track,
/// nearly all of them on the running process's few tracks, copy their place rather than spell two numbers each.
/// Memory is the slots', whatever the trace.
struct ChromeTrackPlaces {
    /// The slots, a power of two.
    static let slotCount = 512
    /// The most bytes a place takes: the literals and two 32-bit numbers of at most 11 characters.
    static let slotSize = 6 + 11 + 7 + 11

    /// The places, ``slotSize`` bytes to a slot.
    private var bytes = [UInt8](repeating: 0, count: slotCount * slotSize)
    /// Each slot's track's `tid` and its place's length, as `tid << 8 | length`; -1 for none yet.
    private var keys = [Int64](repeating: -1, count: slotCount)

    /// Where `track`'s place is in the bytes ``withPlaces(_:)`` lends, spelled there first if the slot holds another.
    @inline(__always)
    mutating func place(of track: ExportTrack) -> Range<Int> {
        let slot = Int(track.tid) & (Self.slotCount &- 1)
        var key = keys[slot]
        if key >> 8 != Int64(track.tid) || key < 0 { key = spell(track, in: slot) }
        let start = slot &* Self.slotSize
        return start..<start &+ Int(key & 0xFF)
    }

    /// Spells `track`'s place in `slot`; returns the slot's key.
    @inline(never)
    private mutating func spell(_ track: ExportTrack, in slot: Int) -> Int64 {
        let start = slot * Self.slotSize
        let count = bytes.withUnsafeMutableBufferPointer { buffer in
            var cursor = OutputCursor(position: buffer.baseAddress! + start)
            cursor.literal("\"pid\":")
            cursor.decimal(Int64(track.pid))
            cursor.literal(",\"tid\":")
            cursor.decimal(Int64(track.tid))
            return cursor.position - (buffer.baseAddress! + start)
        }
        keys[slot] = Int64(track.tid) << 8 | Int64(count)
        return keys[slot]
    }

    /// Calls `body` with the bytes the places returned by ``place(of:)`` are in.
    func withPlaces<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        bytes.withUnsafeBytes(body)
    }
}
