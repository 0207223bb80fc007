extension String {
    /// `bytes` as a string if they are valid UTF-8 (no overlong form, surrogate, code point past U+10FFFF or
    /// sequence cut short), else `nil`.
    ///
    /// The standard library's `String(validating:as:)` does the same on Apple's platforms only from macOS 15,
    /// iOS 18, tvOS 18, watchOS 11 and visionOS 2; the package supports earlier releases
    /// (`scripts/check-apple-availability`).
    package init?(validUTF8 bytes: some Collection<UInt8>) {
        // ASCII, nearly every string of a trace, is valid as it is: one pass, no parser.
        if !bytes.contains(where: { $0 >= 0x80 }) {
            self = String(decoding: bytes, as: UTF8.self)
            return
        }
        let invalid = transcode(bytes.makeIterator(), from: UTF8.self, to: UTF8.self, stoppingOnError: true) { _ in }
        guard !invalid else { return nil }
        self = String(decoding: bytes, as: UTF8.self)
    }
}
