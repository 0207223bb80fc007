import LifetraceFormat

/// The JSON string literal of the text written last, kept with the text: the Chrome JSON export writes an event's
/// scene in its arguments, and consecutive events are mostly of one scene, so they copy its escaped bytes rather than
/// scan the text again. Texts longer than ``limit`` bytes are written as they come, so memory stays small whatever
/// a trace names.
struct JSONStringMemo {
    /// The longest text kept.
    static let limit = 4096

    private var text = ""
    private var literal = ByteBuffer()
    private var holds = false

    /// Appends `text` as a JSON string literal to `buffer`.
    mutating func append(_ text: String, to buffer: inout ByteBuffer) {
        if !holds || self.text != text {
            guard text.utf8.count <= Self.limit else { return buffer.appendJSONString(text) }
            literal.removeAll()
            literal.appendJSONString(text)
            self.text = text
            holds = true
        }
        buffer.append(literal)
    }
}
