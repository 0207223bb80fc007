import LifetraceFormat

/// Byte-wise search in UTF-8 text, for the ASCII markers of log lines: much cheaper per line than
/// Foundation's locale-aware `range(of:)`, and it allocates nothing.
enum UTF8Search {
    /// The first occurrence of `needle` in `text` at or after `start`.
    static func range<S: StringProtocol>(of needle: StaticString, in text: S, from start: String.Index? = nil)
        -> Range<String.Index>? where S.Index == String.Index
    {
        let utf8 = text.utf8
        let from = start ?? utf8.startIndex
        // Text without contiguous UTF-8 storage (bridged strings) is copied once.
        guard
            let found = utf8[from...].withContiguousStorageIfAvailable({ offset(of: needle, in: $0) })
                ?? Array(utf8[from...]).withUnsafeBufferPointer({ offset(of: needle, in: $0) })
        else { return nil }
        let lower = utf8.index(from, offsetBy: found)
        return lower..<utf8.index(lower, offsetBy: needle.utf8CodeUnitCount)
    }

    /// The index of the first `byte` in `text` at or after `start` (`memchr`, a fraction of an instruction a byte).
    static func firstIndex<S: StringProtocol>(of byte: UInt8, in text: S, from start: String.Index) -> String.Index?
    where S.Index == String.Index {
        let utf8 = text.utf8
        let offset: Int?? = utf8[start...].withContiguousStorageIfAvailable { bytes in
            bytes.baseAddress.flatMap { ByteSearch.firstOffset(of: byte, in: $0, count: bytes.count) }
        }
        if let offset { return offset.map { utf8.index(start, offsetBy: $0) } }
        return utf8[start...].firstIndex(of: byte)
    }

    /// `line` after its first `count` bytes (an ASCII stamp's length): found in the UTF-8 view in one step,
    /// not by walking `count` characters.
    static func dropFirst(_ count: Int, bytesOf line: Substring) -> Substring {
        let utf8 = line.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: count, limitedBy: utf8.endIndex) ?? utf8.endIndex
        return line[start...]
    }

    /// The part of `text` from `start` up to the first byte that `stop` accepts (or the end).
    static func prefix(_ text: String, from start: String.Index, until stop: (UInt8) -> Bool) -> Substring {
        let utf8 = text.utf8
        let end = firstIndex(in: utf8, from: start, where: stop) ?? utf8.endIndex
        return text[start..<end]
    }

    /// The ASCII digits at `start`, as a number.
    static func integer(_ text: String, at start: String.Index) -> Int64? {
        let digits = prefix(text, from: start) { $0 < UInt8(ascii: "0") || $0 > UInt8(ascii: "9") }
        return digits.isEmpty ? nil : Int64(digits)
    }

    private static func firstIndex(
        in utf8: String.UTF8View, from start: String.Index,
        where predicate: (UInt8) -> Bool
    ) -> String.Index? {
        let offset: Int?? = utf8[start...].withContiguousStorageIfAvailable { $0.firstIndex(where: predicate) }
        if let offset { return offset.map { utf8.index(start, offsetBy: $0) } }
        return utf8[start...].firstIndex(where: predicate)
    }

    private static func offset(of needle: StaticString, in haystack: UnsafeBufferPointer<UInt8>) -> Int? {
        needle.withUTF8Buffer { offset(of: $0, in: haystack) }
    }

    private static func offset(of pattern: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Int?
    {
        guard let first = pattern.first, let base = haystack.baseAddress, let needle = pattern.baseAddress,
            haystack.count >= pattern.count
        else { return nil }
        var index = 0
        let last = haystack.count - pattern.count
        while index <= last {
            guard let hit = ByteSearch.firstOffset(of: first, in: base + index, count: last - index + 1)
            else { return nil }
            let position = index + hit
            if ByteSearch.equal(base + position, needle, count: pattern.count) { return position }
            index = position + 1
        }
        return nil
    }
}
