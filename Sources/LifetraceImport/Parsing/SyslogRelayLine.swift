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
    /// ends in `[pid]` (and launchd's job), then `<Level>:`.
    static func fields(_ line: Substring) -> Fields? {
        let utf8 = line.utf8
        guard utf8.count >= 20 else { return nil }
        let start = utf8.startIndex
        let b0 = utf8[start], b1 = utf8[utf8.index(start, offsetBy: 1)], b2 = utf8[utf8.index(start, offsetBy: 2)]
        guard let month = LogTime.month(b0, b1, b2), utf8[utf8.index(start, offsetBy: 3)] == UInt8(ascii: " ") else {
            return nil
        }
        // The day, space-padded (`Aug  7`) or not.
        var index = utf8.index(start, offsetBy: 4)
        if utf8[index] == UInt8(ascii: " ") { index = utf8.index(after: index) }
        var day: Int64 = 0
        var digits = 0
        while index < utf8.endIndex, let digit = Self.digit(utf8[index]) {
            day = day * 10 + digit
            digits += 1
            index = utf8.index(after: index)
        }
        guard (1...2).contains(digits), (1...31).contains(day), index < utf8.endIndex,
            utf8[index] == UInt8(ascii: " ")
        else { return nil }
        index = utf8.index(after: index)
        guard let time = LogTime.timeOfDay(line[index...]) else { return nil }
        index = utf8.index(index, offsetBy: time.length)
        guard index < utf8.endIndex, utf8[index] == UInt8(ascii: " ") else { return nil }
        let headStart = utf8.index(after: index)
        // The level: the first ` <Word>:` after the process column.
        var search = headStart
        while let open = UTF8Search.range(of: " <", in: line, from: search) {
            var cursor = open.upperBound
            while cursor < utf8.endIndex, Self.isLetter(utf8[cursor]) { cursor = utf8.index(after: cursor) }
            let length = utf8.distance(from: open.upperBound, to: cursor)
            if length > 0, length <= 12, cursor < utf8.endIndex, utf8[cursor] == UInt8(ascii: ">"),
                utf8.index(after: cursor) < utf8.endIndex, utf8[utf8.index(after: cursor)] == UInt8(ascii: ":") {
                var messageStart = utf8.index(cursor, offsetBy: 2)
                if messageStart < utf8.endIndex, utf8[messageStart] == UInt8(ascii: " ") {
                    messageStart = utf8.index(after: messageStart)
                }
                guard let columns = Self.processColumns(line[headStart..<open.lowerBound]) else { return nil }
                return Fields(month: month, day: day, timeOfDay: time.ns, name: columns.name, sender: columns.sender,
                              pid: columns.pid, label: columns.label, message: line[messageStart...])
            }
            search = open.upperBound
        }
        return nil
    }

    /// `SpringBoard(AssertionServices)[53]`, `kernel[0]`, `com.apple.xpc.launchd[1] (UIKitApplication:...[470])`:
    /// the name (with the device before it, if any), the library, the pid and launchd's job. Read byte by byte
    /// from the end: every entry passes here.
    static func processColumns(_ head: Substring) -> (name: Substring, sender: Substring?, pid: Int64, label: Substring?)? {
        let utf8 = head.utf8
        guard var end = utf8.indices.last else { return nil }
        var label: Substring?
        if utf8[end] == UInt8(ascii: ")"), let open = lastIndex(of: UInt8(ascii: "("), in: utf8, before: end),
            open > utf8.startIndex, utf8[utf8.index(before: open)] == UInt8(ascii: " "),
            utf8.index(before: open) > utf8.startIndex,
            utf8[utf8.index(open, offsetBy: -2)] == UInt8(ascii: "]") {
            label = head[utf8.index(after: open)..<end]
            end = utf8.index(open, offsetBy: -2)
        }
        // `[pid]` at the end.
        guard utf8[end] == UInt8(ascii: "]") else { return nil }
        var cursor = end
        var pid: Int64 = 0
        var scale: Int64 = 1
        while cursor > utf8.startIndex {
            cursor = utf8.index(before: cursor)
            let byte = utf8[cursor]
            if byte == UInt8(ascii: "[") { break }
            guard let digit = Self.digit(byte), scale <= 1_000_000_000_000 else { return nil }
            pid += digit * scale
            scale *= 10
        }
        guard utf8[cursor] == UInt8(ascii: "["), scale > 1 else { return nil }
        var nameEnd = cursor
        var sender: Substring?
        if nameEnd > utf8.startIndex, utf8[utf8.index(before: nameEnd)] == UInt8(ascii: ")"),
            let open = lastIndex(of: UInt8(ascii: "("), in: utf8, before: utf8.index(before: nameEnd)) {
            sender = head[utf8.index(after: open)..<utf8.index(before: nameEnd)]
            nameEnd = open
        }
        guard nameEnd > utf8.startIndex, utf8[utf8.startIndex] != UInt8(ascii: " ") else { return nil }
        return (head[..<nameEnd], sender, pid, label)
    }

    /// The last `byte` before `end` in `utf8`.
    private static func lastIndex(of byte: UInt8, in utf8: Substring.UTF8View, before end: Substring.UTF8View.Index)
        -> Substring.UTF8View.Index? {
        var cursor = end
        while cursor > utf8.startIndex {
            cursor = utf8.index(before: cursor)
            if utf8[cursor] == byte { return cursor }
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
            utf8[utf8.index(utf8.startIndex, offsetBy: length)] == UInt8(ascii: " ") {
            return (column[utf8.index(utf8.startIndex, offsetBy: length + 1)...], false)
        }
        name = nil
        return (column, true)
    }
}
