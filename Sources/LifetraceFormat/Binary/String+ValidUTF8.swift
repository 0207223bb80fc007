extension String {
    /// `bytes` as a string if they are valid UTF-8 (no overlong form, surrogate, code point past U+10FFFF or
    /// sequence cut short), else `nil`.
    ///
    /// The standard library's `String(validating:as:)` does the same on Apple's platforms only from macOS 15,
    /// iOS 18, tvOS 18, watchOS 11 and visionOS 2; the package supports earlier releases
    /// (`scripts/check-apple-availability`).
    package init?(validUTF8 bytes: some Collection<UInt8>) {
        // ASCII, nearly every string of a trace, is valid as it is: one pass, no parser.
        if bytes.withContiguousStorageIfAvailable(Self.isASCII) ?? !bytes.contains(where: { $0 >= 0x80 }) {
            self = String(decoding: bytes, as: UTF8.self)
            return
        }
        let invalid = transcode(bytes.makeIterator(), from: UTF8.self, to: UTF8.self, stoppingOnError: true) { _ in }
        guard !invalid else { return nil }
        self = String(decoding: bytes, as: UTF8.self)
    }

    /// Whether every byte is below 0x80, read eight bytes at a time.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 <= bytes.count {
            if raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            offset += 8
        }
        while offset < bytes.count {
            if base[offset] >= 0x80 { return false }
            offset += 1
        }
        return true
    }
}
