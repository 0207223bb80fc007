import LifetraceFormat

/// The bytes an encoder wrote for the text it wrote last, kept with the text: an export writes each event's scene
/// in its arguments, and consecutive events are mostly of one scene, so they copy its bytes (Chrome JSON's escaped
/// string, Perfetto's whole annotation) rather than spell them again. Texts longer than ``limit`` bytes are not
/// kept, so memory stays small whatever a trace names.
struct WrittenTextMemo {
    /// The longest text kept.
    static let limit = 4096

    private var text = ""
    private var bytes = ByteWriter()
    private var holds = false

    /// Appends the bytes kept for `text` to `buffer` if it is the text kept; returns whether it was.
    @inline(__always)
    mutating func append(_ text: String, to buffer: inout ByteWriter) -> Bool {
        guard holds, self.text == text else { return false }
        buffer.append(bytes)
        return true
    }

    /// Keeps `text` with the bytes written for it: `buffer`'s from `start` on.
    mutating func keep(_ text: String, written buffer: ByteWriter, from start: Int) {
        holds = false
        guard text.utf8.count <= Self.limit else { return }
        bytes.removeAll()
        buffer.withBytes { bytes.appendBytes(UnsafeRawBufferPointer(rebasing: $0[start...])) }
        self.text = text
        holds = true
    }
}
