/// The lines `idevicesyslog` (libimobiledevice) prints, as device farms, Appium and CI rigs collect them from
/// real devices:
///
/// ```text
/// Aug  7 11:42:43 Jane-iPhone SpringBoard(AssertionServices)[53] <Notice>: message
/// Oct 10 13:17:45 MyApp(UIKitCore)[812] <Notice>: message
/// Mar  3 10:40:45 iPod com.apple.xpc.launchd[1] (UIKitApplication:com.weather.TWC[0x942c][470]) <Notice>: message
/// ```
///
/// The month, day and time (whole seconds, or with a fraction), in older iOS versions the device's name, the
/// process with the library that logged in parentheses, the pid, for launchd the job in parentheses, and the
/// level. No year, no zone.
enum SyslogRelayLine {
    /// An entry's columns, before the device column is told apart from the process.
    struct Fields {
        var month: Int64
        var day: Int64
        var timeOfDay: Int64
        /// The process column, with the device's name before it where the capture has one.
        var name: Substring
        var sender: Substring?
        var pid: Int64
        /// launchd's job, in parentheses after the pid.
        var label: Substring?
        var message: Substring
    }

    /// The banner idevicesyslog prints as the device connects or disconnects (`[connected]`,
    /// `[connected:UDID]`, `[disconnected]`): no entry, and no text around the capture either.
    static func isBanner(_ line: Substring) -> Bool {
        guard line.hasPrefix("["), line.hasSuffix("]") else { return false }
        let word = line.dropFirst().prefix { $0.isLetter }
        return word == "connected" || word == "disconnected" || word == "reconnected"
    }

    /// The columns of `line`, if it is an idevicesyslog entry: the date and time, then a process column that
    /// ends in `[pid]` (and launchd's job), then `<Level>:`. Every line passes here: it is read as bytes.
    static func fields(_ line: Substring) -> Fields? {
        if let found = line.utf8.withContiguousStorageIfAvailable({ columns(bytes: $0) }) {
            return found.map { fields(line, $0) }
        }
        // A line not stored as UTF-8 in one piece (bridged text): read a copy that is.
        var copy = String(line)
        copy.makeContiguousUTF8()
        return fields(copy[...])
    }

    /// Where an entry's columns are, as byte offsets into its line.
    private struct Columns {
        var month: Int64
        var day: Int64
        var timeOfDay: Int64
        var name: Range<Int>
        var sender: Range<Int>?
        var pid: Int64
        var label: Range<Int>?
        var message: Int
    }

    private static func fields(_ line: Substring, _ columns: Columns) -> Fields {
        let utf8 = line.utf8
        func index(_ offset: Int) -> Substring.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
        func text(_ range: Range<Int>) -> Substring { line[index(range.lowerBound)..<index(range.upperBound)] }
        return Fields(
            month: columns.month, day: columns.day, timeOfDay: columns.timeOfDay, name: text(columns.name),
            sender: columns.sender.map(text), pid: columns.pid, label: columns.label.map(text),
            message: line[index(columns.message)...])
    }

    private static func columns(bytes b: UnsafeBufferPointer<UInt8>) -> Columns? {
        guard b.count >= 20, let month = LogTime.month(b[0], b[1], b[2]), b[3] == UInt8(ascii: " ") else { return nil }
        // The day, space-padded (`Aug  7`) or not.
        var index = b[4] == UInt8(ascii: " ") ? 5 : 4
        var day: Int64 = 0
        var digits = 0
        // At most three digits read (a third already refuses the line): a run of digits cannot overflow.
        while index < b.count, digits < 3, let digit = Self.digit(b[index]) {
            day = day * 10 + digit
            digits += 1
            index += 1
        }
        guard (1...2).contains(digits), (1...31).contains(day), index < b.count, b[index] == UInt8(ascii: " ") else {
            return nil
        }
        index += 1
        guard let time = LogTime.timeOfDay(bytes: UnsafeBufferPointer(rebasing: b[index..<min(b.count, index + 20)]))
        else { return nil }
        index += time.length
        guard index < b.count, b[index] == UInt8(ascii: " ") else { return nil }
        let headStart = index + 1
        // The level: the first ` <Word>:` after the process column.
        var open = headStart
        while open + 1 < b.count {
            defer { open += 1 }
            guard b[open] == UInt8(ascii: " "), b[open + 1] == UInt8(ascii: "<") else { continue }
            var cursor = open + 2
            while cursor < b.count, Self.isLetter(b[cursor]) { cursor += 1 }
            let length = cursor - (open + 2)
            guard length > 0, length <= 12, cursor + 1 < b.count, b[cursor] == UInt8(ascii: ">"),
                b[cursor + 1] == UInt8(ascii: ":")
            else { continue }
            var message = cursor + 2
            if message < b.count, b[message] == UInt8(ascii: " ") { message += 1 }
            guard headStart < open,
                let head = processColumns(bytes: UnsafeBufferPointer(rebasing: b[headStart..<open]))
            else { return nil }
            let shift = { (range: Range<Int>) in (range.lowerBound + headStart)..<(range.upperBound + headStart) }
            return Columns(
                month: month, day: day, timeOfDay: time.ns, name: shift(head.name),
                sender: head.sender.map(shift), pid: head.pid, label: head.label.map(shift), message: message)
        }
        return nil
    }

    /// `SpringBoard(AssertionServices)[53]`, `kernel[0]`, `com.apple.xpc.launchd[1] (UIKitApplication:...[470])`:
    /// the name (with the device before it, if any), the library, the pid and launchd's job, as offsets into
    /// `h`. Read from the end.
    private static func processColumns(bytes h: UnsafeBufferPointer<UInt8>)
        -> (name: Range<Int>, sender: Range<Int>?, pid: Int64, label: Range<Int>?)?
    {
        var end = h.count - 1
        var label: Range<Int>?
        if h[end] == UInt8(ascii: ")"), let open = lastIndex(of: UInt8(ascii: "("), in: h, before: end), open >= 2,
            h[open - 1] == UInt8(ascii: " "), h[open - 2] == UInt8(ascii: "]")
        {
            label = (open + 1)..<end
            end = open - 2
        }
        // `[pid]` at the end.
        guard h[end] == UInt8(ascii: "]") else { return nil }
        var cursor = end
        var pid: Int64 = 0
        var scale: Int64 = 1
        while cursor > 0 {
            cursor -= 1
            let byte = h[cursor]
            if byte == UInt8(ascii: "[") { break }
            guard let digit = Self.digit(byte), scale <= 1_000_000_000_000 else { return nil }
            pid += digit * scale
            scale *= 10
        }
        guard h[cursor] == UInt8(ascii: "["), scale > 1 else { return nil }
        var nameEnd = cursor
        var sender: Range<Int>?
        if nameEnd > 0, h[nameEnd - 1] == UInt8(ascii: ")"),
            let open = lastIndex(of: UInt8(ascii: "("), in: h, before: nameEnd - 1)
        {
            sender = (open + 1)..<(nameEnd - 1)
            nameEnd = open
        }
        guard nameEnd > 0, h[0] != UInt8(ascii: " ") else { return nil }
        return (0..<nameEnd, sender, pid, label)
    }

    /// The last `byte` before `end` in `bytes`.
    private static func lastIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, before end: Int) -> Int? {
        var cursor = end
        while cursor > 0 {
            cursor -= 1
            if bytes[cursor] == byte { return cursor }
        }
        return nil
    }

    @inline(__always)
    private static func digit(_ byte: UInt8) -> Int64? {
        byte >= 0x30 && byte <= 0x39 ? Int64(byte - 0x30) : nil
    }

    @inline(__always)
    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }
}

/// Whether an idevicesyslog capture has the device's name as a column (older iOS versions:
/// `Aug  7 11:42:43 Jane-iPhone SpringBoard[53] ...`), told from its entries: the first word of the first
/// entry's process column is taken for the device while every entry starts with it.
struct SyslogRelayDevice: Sendable {
    private(set) var name: String?
    private var settled = false

    /// The process of an entry whose process column is `column`: without the device's name; `disproved` is
    /// true when this entry shows that the capture has no device column after all (the entries before it
    /// then lost their first word wrongly).
    mutating func process(_ column: Substring) -> (process: Substring, disproved: Bool) {
        if !settled {
            settled = true
            if let space = column.firstIndex(of: " ") { name = String(column[..<space]) }
        }
        guard let device = name else { return (column, false) }
        // Compared as bytes: every entry passes here.
        let utf8 = column.utf8
        let length = device.utf8.count
        if utf8.count > length, utf8.prefix(length).elementsEqual(device.utf8),
            utf8[utf8.index(utf8.startIndex, offsetBy: length)] == UInt8(ascii: " ")
        {
            return (column[utf8.index(utf8.startIndex, offsetBy: length + 1)...], false)
        }
        name = nil
        return (column, true)
    }
}
