import LifetraceCore

/// Turns the physical lines of a capture into ``LogLine`` entries, joining continuation lines.
///
/// One parser per capture: the format is detected from the first entry line, then every line either starts
/// an entry of that format or continues the previous entry's message.
struct LogLineParser {
    private(set) var format: LogFormat?
    private var pending: LogLine?
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
    /// Lines that are neither an entry nor a continuation (headers such as `Timestamp Thread Type ...`).
    private(set) var skippedLines = 0

    /// Feeds one physical line; returns the entry the line completes, if any.
    mutating func feed(_ line: Substring, number: Int) -> LogLine? {
        if format == nil {
            guard let detected = LogFormat.detect(line) else {
                skippedLines += 1
                return nil
            }
            format = detected
        }
        if format == .json { return feedJSON(line, number: number) }
        if let entry = parseEntry(line, number: number) {
            let finished = pending
            pending = entry
            return finished
        }
        if pending != nil {
            // A message is kept to its first megabyte: beyond that it is no lifecycle line anyway.
            if pending!.message.utf8.count < Self.maxMessage { pending!.message += "\n" + line }
        } else {
            skippedLines += 1
        }
        return nil
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
        default: return nil
        }
    }

    /// `default<TAB>20:42:13.601596-0500<TAB>SpringBoard<TAB>message`
    private mutating func console(_ line: Substring, number: Int) -> LogLine? {
        let tab = UInt8(ascii: "\t")
        guard let first = UTF8Search.firstIndex(of: tab, in: line, from: line.startIndex), first > line.startIndex,
            !line[..<first].utf8.contains(UInt8(ascii: " ")),
            let second = UTF8Search.firstIndex(of: tab, in: line, from: line.utf8.index(after: first)),
            let third = UTF8Search.firstIndex(of: tab, in: line, from: line.utf8.index(after: second))
        else { return nil }
        let stamp = line[line.utf8.index(after: first)..<second]
        guard let time = LogTime.timeOfDay(stamp) else { return nil }
        let zone = stamp.dropFirst(time.length)
        if time.ns + 6 * 3_600_000_000_000 < lastTimeOfDay { dayOffset += 86_400_000_000_000 }
        lastTimeOfDay = time.ns
        return LogLine(number: number, timestamp: time.ns + dayOffset, hasDate: false,
                       zone: zone.isEmpty ? nil : String(zone),
                       process: String(line[line.utf8.index(after: second)..<third]),
                       message: String(line[line.utf8.index(after: third)...]))
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
