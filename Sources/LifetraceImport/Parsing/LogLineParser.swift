import LifetraceCore

/// Turns the physical lines of a capture into ``LogLine`` entries, joining continuation lines.
///
/// One parser per capture: the format is detected from the first entry line, then every line either starts
/// an entry of that format or continues the previous entry's message.
struct LogLineParser {
    private(set) var format: LogFormat?
    /// For Console copies, the columns they hold.
    private var columns: ConsoleColumns?
    private var pending: LogLine?
    /// Whether a line that starts no entry continues the pending entry's message: until a blank line or a
    /// Markdown fence, which end a capture pasted into a note or an issue.
    private var continuing = false
    private var jsonBuffer = ""
    private var jsonDepth = 0
    private var jsonStart = 0
    private var jsonInString = false
    private var jsonEscape = false
    /// For captures without dates: the day added to times of day that went backwards (midnight passed).
    private var dayOffset: Int64 = 0
    private var lastTimeOfDay: Int64 = 0
    /// The most of a message (or of one JSON object) kept, in bytes.
    static let maxMessage = 1 << 20
    /// Lines with text that is neither an entry nor a continuation: prose around a pasted capture, header
    /// lines such as `Timestamp Thread Type ...`, fragments of entries. Blank lines and fences are not counted.
    private(set) var skippedLines = 0
    /// Lines whose entry came after other text on the same line (`here is the log: default<TAB>...`).
    private(set) var skippedPrefixes = 0

    /// Feeds one physical line; returns the entry the line completes, if any.
    mutating func feed(_ line: Substring, number: Int) -> LogLine? {
        if format == nil, LogFormat.detect(line) == .json { format = .json }
        if format == .json { return feedJSON(line, number: number) }
        if let entry = entry(line, number: number) { return begin(entry) }
        if Self.endsContinuation(line) {
            continuing = false
            return nil
        }
        if continuing {
            // A message is kept to its first megabyte: beyond that it is no lifecycle line anyway.
            if pending!.message.utf8.count < Self.maxMessage { pending!.message += "\n" + line }
            return nil
        }
        // Text around the capture; a sentence may run into the first entry of a paste.
        var start = line.startIndex
        while let space = line[start...].firstIndex(of: " ") {
            start = line.index(after: space)
            if let entry = entry(line[start...], number: number) {
                skippedPrefixes += 1
                return begin(entry)
            }
        }
        skippedLines += 1
        return nil
    }

    /// The entry `text` starts, in the capture's format (told from this line if not known yet).
    private mutating func entry(_ text: Substring, number: Int) -> LogLine? {
        guard format != nil else {
            // JSON starts a line (see `feed`); text that merely holds a brace is none.
            guard let detected = LogFormat.detect(text), detected != .json else { return nil }
            self.format = detected
            if detected == .console { columns = ConsoleColumns.detect(text) }
            guard let entry = parseEntry(text, number: number) else {
                self.format = nil
                columns = nil
                return nil
            }
            return entry
        }
        return parseEntry(text, number: number)
    }

    private mutating func begin(_ entry: LogLine) -> LogLine? {
        let finished = pending
        pending = entry
        continuing = true
        return finished
    }

    /// A blank line, or a Markdown code fence (```` ``` ````, `~~~`).
    static func endsContinuation(_ line: Substring) -> Bool {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        return trimmed.isEmpty || trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~")
    }

    /// The last entry, at the end of the input.
    mutating func finish() -> LogLine? {
        defer { pending = nil }
        return pending
    }

    private mutating func parseEntry(_ line: Substring, number: Int) -> LogLine? {
        switch format {
        case .console?: return console(line, number: number)
        case .logDefault?: return logDefault(line, number: number)
        case .logCompact?: return logCompact(line, number: number)
        case .logSyslog?: return logSyslog(line, number: number)
        default: return nil
        }
    }

    /// `default<TAB>20:42:13.601596-0500<TAB>SpringBoard<TAB>message`, in the columns ``ConsoleColumns`` reads.
    private mutating func console(_ line: Substring, number: Int) -> LogLine? {
        guard let columns else { return nil }
        // The bounds of each column, found by one search for each tab; a line cut short after the process (or
        // the subsystem) leaves the columns after it empty, and the message with them.
        let tab = UInt8(ascii: "\t")
        var start = line.startIndex
        var bounds: (Range<String.Index>, Range<String.Index>, Range<String.Index>, Range<String.Index>,
                     Range<String.Index>) = (start..<start, start..<start, start..<start, start..<start, start..<start)
        let count = (columns.hasType ? 2 : 1) + (columns.hasSubsystemAndCategory ? 3 : 1)
        withUnsafeMutableBytes(of: &bounds) { raw in
            let slots = raw.bindMemory(to: Range<String.Index>.self)
            for index in 0..<count {
                let end = UTF8Search.firstIndex(of: tab, in: line, from: start) ?? line.endIndex
                slots[index] = start..<end
                start = end == line.endIndex ? end : line.utf8.index(after: end)
            }
        }
        let message = line[start...]
        var column = 0
        if columns.hasType {
            let type = line.utf8[bounds.0]
            if type.isEmpty || type.contains(UInt8(ascii: " ")) { return nil }
            column = 1
        }
        let stampBounds = column == 0 ? bounds.0 : bounds.1
        let processBounds = column == 0 ? bounds.1 : bounds.2
        guard let stamp = ConsoleColumns.stamp(line[stampBounds]), processBounds.upperBound < line.endIndex else {
            return nil
        }
        var subsystem: String?
        var category: String?
        if columns.hasSubsystemAndCategory {
            let (s, c) = column == 0 ? (bounds.2, bounds.3) : (bounds.3, bounds.4)
            subsystem = s.isEmpty ? nil : String(line[s])
            category = c.isEmpty ? nil : String(line[c])
        }
        var timestamp = stamp.ns
        if !stamp.hasDate {
            if stamp.ns + 6 * 3_600_000_000_000 < lastTimeOfDay { dayOffset += 86_400_000_000_000 }
            lastTimeOfDay = stamp.ns
            timestamp += dayOffset
        }
        return LogLine(number: number, timestamp: timestamp, hasDate: stamp.hasDate, zone: stamp.zone,
                       process: String(line[processBounds]), subsystem: subsystem, category: category,
                       message: String(message))
    }

    /// `2026-10-08 11:59:59.318123-0700  0x159e4  Default  0x0  31848  0  App: (UIKitCore) [com.apple.UIKit:Lifecycle] message`
    private func logDefault(_ line: Substring, number: Int) -> LogLine? {
        guard let stamp = LogTime.dateTime(line) else { return nil }
        var rest = line.dropFirst(stamp.length)
        var pid: Substring = ""
        for column in 0..<5 {  // thread, type, activity, pid, ttl
            rest = rest.drop { $0 == " " || $0 == "\t" }
            let text = rest.prefix { $0 != " " && $0 != "\t" }
            guard !text.isEmpty else { return nil }
            if column == 3 { pid = text }
            rest = rest.dropFirst(text.count)
        }
        rest = rest.drop { $0 == " " || $0 == "\t" }
        guard let colon = rest.firstIndex(of: ":") else { return nil }
        let process = rest[..<colon]
        var message = rest[rest.index(after: colon)...].drop { $0 == " " }
        if message.hasPrefix("("), let close = message.firstIndex(of: ")") {
            message = message[message.index(after: close)...].drop { $0 == " " }
        }
        let (subsystem, category, text) = Self.subsystemCategory(message)
        return LogLine(number: number, timestamp: stamp.ns, hasDate: true, zone: stamp.zone, process: String(process),
                       pid: Int64(pid), subsystem: subsystem, category: category, message: String(text))
    }

    /// `2026-10-08 11:59:59.318 Df BareExample[31848:159e4] [com.apple.UIKit:BackgroundTask] message`
    private func logCompact(_ line: Substring, number: Int) -> LogLine? {
        guard let stamp = LogTime.dateTime(line) else { return nil }
        var rest = line.dropFirst(stamp.length).drop { $0 == " " }
        let type = rest.prefix { $0 != " " }
        guard !type.isEmpty, type.count <= 2 else { return nil }
        rest = rest.dropFirst(type.count).drop { $0 == " " }
        guard let open = rest.firstIndex(of: "["), let close = rest[open...].firstIndex(of: "]") else { return nil }
        let process = rest[..<open]
        let ids = rest[rest.index(after: open)..<close].split(separator: ":")
        let message = rest[rest.index(after: close)...].drop { $0 == " " }
        let (subsystem, category, text) = Self.subsystemCategory(message)
        return LogLine(number: number, timestamp: stamp.ns, hasDate: true, zone: stamp.zone, process: String(process),
                       pid: ids.first.flatMap { Int64($0) }, subsystem: subsystem, category: category, message: String(text))
    }

    /// `2019-08-23 17:08:45.211461+0300  localhost SpringBoard[20455]: (UIKitCore) [com.apple.UIKit:Lifecycle] message`
    private func logSyslog(_ line: Substring, number: Int) -> LogLine? {
        guard let stamp = LogTime.dateTime(line) else { return nil }
        var rest = line.dropFirst(stamp.length).drop { $0 == " " }
        let host = rest.prefix { $0 != " " }
        guard !host.isEmpty, let colon = UTF8Search.range(of: "]: ", in: rest) else { return nil }
        rest = rest.dropFirst(host.count).drop { $0 == " " }
        let head = rest[..<colon.lowerBound]
        guard let open = head.lastIndex(of: "[") else { return nil }
        var message = rest[colon.upperBound...]
        if message.hasPrefix("("), let close = message.firstIndex(of: ")") {
            message = message[message.index(after: close)...].drop { $0 == " " }
        }
        let (subsystem, category, text) = Self.subsystemCategory(message)
        return LogLine(number: number, timestamp: stamp.ns, hasDate: true, zone: stamp.zone, process: String(head[..<open]),
                       pid: Int64(head[head.index(after: open)...]), subsystem: subsystem, category: category,
                       message: String(text))
    }

    /// Splits a leading `[subsystem:category]` off a message.
    static func subsystemCategory(_ message: Substring) -> (String?, String?, Substring) {
        guard message.hasPrefix("["), let close = message.firstIndex(of: "]") else { return (nil, nil, message) }
        let inside = message[message.index(after: message.startIndex)..<close]
        guard let colon = inside.firstIndex(of: ":"), !inside.contains(" ") else { return (nil, nil, message) }
        return (String(inside[..<colon]), String(inside[inside.index(after: colon)...]),
                message[message.index(after: close)...].drop { $0 == " " })
    }

    // MARK: - JSON

    /// Collects one JSON object (NDJSON: one line; `--style json`: several lines inside an array).
    private mutating func feedJSON(_ line: Substring, number: Int) -> LogLine? {
        var result: LogLine?
        for character in line.unicodeScalars {
            if jsonDepth == 0 {
                if character == "{" {
                    jsonDepth = 1
                    jsonBuffer = "{"
                    jsonStart = number
                }
                continue
            }
            jsonBuffer.unicodeScalars.append(character)
            if jsonInString {
                if jsonEscape { jsonEscape = false } else if character == "\\" { jsonEscape = true } else if character == "\"" { jsonInString = false }
                continue
            }
            switch character {
            case "\"": jsonInString = true
            case "{": jsonDepth += 1
            case "}":
                jsonDepth -= 1
                if jsonDepth == 0 { result = jsonEntry(jsonBuffer, number: jsonStart) }
            default: break
            }
        }
        if jsonDepth > 0 { jsonBuffer.append("\n") }
        if jsonBuffer.utf8.count > Self.maxMessage {
            // An object that never closes: drop it and look for the next one.
            jsonDepth = 0
            jsonInString = false
            jsonEscape = false
            jsonBuffer = ""
            skippedLines += 1
        }
        return result
    }

    private mutating func jsonEntry(_ text: String, number: Int) -> LogLine? {
        guard let value = try? JSONValueParser.parse(text), let stamp = value["timestamp"]?.stringValue,
            let time = LogTime.dateTime(Substring(stamp))
        else {
            skippedLines += 1
            return nil
        }
        let path = value["processImagePath"]?.stringValue ?? ""
        let process = path.split(separator: "/").last.map(String.init) ?? ""
        return LogLine(number: number, timestamp: time.ns, hasDate: true, zone: time.zone, process: process,
                       pid: value["processID"]?.intValue, subsystem: value["subsystem"]?.stringValue,
                       category: value["category"]?.stringValue, message: value["eventMessage"]?.stringValue ?? "")
    }
}
