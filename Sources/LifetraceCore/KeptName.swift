/// A name from a trace (a scene's id) as a command keeps it while it reads the trace — a key of its per-scene
/// state, a lane, a track, a distinct scene counted — in bounded memory whatever the name's length: a name of at
/// most ``limit`` bytes as it is, a longer one cut to its first bytes, marked `…` and followed by a 64-bit hash
/// of the whole name, so that two long names that differ stay two. Memory is then per name, not per byte of
/// the names a trace holds (forty frames naming 16 MB scenes once took 700 MB).
package enum KeptName {
    /// The most UTF-8 bytes a kept name has.
    package static let limit = 256

    /// `name`, or its first bytes (at a scalar boundary), `…` and the hash of the whole name as 16 hex digits.
    package static func bounded(_ name: String) -> String {
        guard name.utf8.count > limit else { return name }
        let digits = String(fnv1a(name), radix: 16)
        let suffix = "…" + String(repeating: "0", count: 16 - digits.count) + digits
        // The prefix, the ellipsis (3 bytes) and the 16 digits within the limit.
        return prefix(of: name, bytes: limit - suffix.utf8.count) + suffix
    }

    /// `text` as a finding and a report keep it, where two long texts need not stay apart: at most ``limit`` bytes
    /// of UTF-8 (cut at a scalar boundary), marked `…` when it was longer.
    package static func cut(_ text: String) -> String {
        guard text.utf8.count > limit else { return text }
        return prefix(of: text, bytes: limit) + "…"
    }

    /// The first `bytes` bytes of `text`'s UTF-8, fewer to end at a scalar boundary.
    private static func prefix(of text: String, bytes: Int) -> String {
        var end = text.utf8.index(text.utf8.startIndex, offsetBy: bytes)
        while end.samePosition(in: text.unicodeScalars) == nil { end = text.utf8.index(before: end) }
        return String(text.unicodeScalars[..<end])
    }

    /// FNV-1a (64 bits) of the name's UTF-8 bytes, read from its contiguous storage: a name of megabytes is
    /// hashed at memory speed, not through the string's index.
    private static func fnv1a(_ name: String) -> UInt64 {
        var name = name
        return name.withUTF8 { fnv1a($0) }
    }

    /// Whether `a` and `b` hold the same bytes: what the tables of names compare a name's bytes by once its hash
    /// matched, eight bytes at a time (a loop over the sequences' elements takes several times as long).
    @inlinable
    package static func sameBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let left = a.baseAddress, let right = b.baseAddress else { return true }
        let raw = (UnsafeRawPointer(left), UnsafeRawPointer(right))
        var offset = 0
        while offset + 8 <= a.count {
            guard
                raw.0.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    == raw.1.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            else { return false }
            offset += 8
        }
        while offset < a.count {
            guard left[offset] == right[offset] else { return false }
            offset += 1
        }
        return true
    }

    /// FNV-1a (64 bits) of `bytes`: the hash a long name is kept with, and what the tables of names hash by.
    package static func fnv1a(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        guard let base = bytes.baseAddress else { return hash }
        var pointer = base
        let end = base + bytes.count
        while pointer < end {
            hash = (hash ^ UInt64(pointer.pointee)) &* 0x0000_0100_0000_01B3
            pointer += 1
        }
        return hash
    }
}
