/// The escape sequences a terminal reads in a capture: idevicesyslog colours its columns when it writes to a
/// terminal (`ESC[1;36m` ... `ESC[m`), and a capture saved from one (`script`, a terminal's log) keeps them. They
/// are no text of the log: a line is read without them.
enum TerminalEscapes {
    private static let escape = UInt8(0x1B)

    /// `line` without its escape sequences; `line` itself if it has none (no copy).
    static func removed(from line: Substring) -> Substring {
        guard UTF8Search.firstIndex(of: escape, in: line, from: line.startIndex) != nil else { return line }
        var kept: [UInt8] = []
        kept.reserveCapacity(line.utf8.count)
        var bytes = line.utf8.makeIterator()
        while let byte = bytes.next() {
            guard byte == escape else {
                kept.append(byte)
                continue
            }
            // ECMA-48: a control sequence is ESC [, parameter and intermediate bytes, then a final byte from
            // `@` to `~`; any other escape is ESC and one byte.
            guard let next = bytes.next(), next == UInt8(ascii: "[") else { continue }
            while let part = bytes.next(), !(0x40...0x7E).contains(part) {}
        }
        return String(decoding: kept, as: UTF8.self)[...]
    }
}
