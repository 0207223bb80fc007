import LifetraceCore

/// A string of a JSON line as ``JSONScanner`` read it: its bytes in the line where it has no escape, nothing copied
/// (an object's keys, an event's name), else the text its escapes decode to. Valid UTF-8 either way.
struct JSONString {
    /// Its bytes in the line; empty when ``decoded`` holds the text.
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The text of a string with escapes.
    private let decoded: String?

    /// A string without escapes: `bytes`, known to be valid UTF-8.
    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        decoded = nil
    }

    /// A string with escapes, decoded to `text`.
    init(decoded text: String) {
        bytes = UnsafeBufferPointer(start: nil, count: 0)
        decoded = text
    }

    /// Its text.
    var string: String {
        decoded ?? String(decoding: bytes, as: UTF8.self)
    }

    /// Calls `body` with its UTF-8 bytes.
    func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        guard var text = decoded else { return body(bytes) }
        return text.withUTF8(body)
    }

    /// Whether its text is `literal` (a key compared with no string made).
    func equals(_ literal: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        return withUTF8 { KeptName.sameBytes($0, expected) }
    }
}
