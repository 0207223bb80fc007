/// What a line's text says apart from its format's columns: where a paste's message ends, the marks a paste puts
/// before an entry, a message's leading `[subsystem:category]`.
extension LogLineParser {
    /// The characters a paste may put before an entry: a Markdown quote, a list bullet, a table bar, the comma
    /// of a log joined from an array.
    static let marks: Set<Character> = [">", "|", "*", ","]

    /// A blank line (spaces at most: a tab belongs to a message's indented lines), or a Markdown code fence
    /// (```` ``` ````, `~~~`).
    static func endsContinuation(_ line: Substring) -> Bool {
        let trimmed = line.drop { $0 == " " }
        if trimmed.isEmpty { return true }
        let text = trimmed.drop { $0 == "\t" }
        return text.hasPrefix("```") || text.hasPrefix("~~~")
    }

    /// Splits a leading `[subsystem:category]` off a message.
    static func subsystemCategory(_ message: Substring) -> (String?, String?, Substring) {
        guard message.hasPrefix("["), let close = message.firstIndex(of: "]") else { return (nil, nil, message) }
        let inside = message[message.index(after: message.startIndex)..<close]
        guard let colon = inside.firstIndex(of: ":"), !inside.contains(" ") else { return (nil, nil, message) }
        return (
            String(inside[..<colon]), String(inside[inside.index(after: colon)...]),
            message[message.index(after: close)...].drop { $0 == " " }
        )
    }
}
