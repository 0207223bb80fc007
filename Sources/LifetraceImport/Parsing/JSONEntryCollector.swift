import LifetraceCore

/// Collects the JSON objects of `log stream --style ndjson` (one a line) and `log show --style json` (an
/// array, one key a line) and reads each as an entry.
struct JSONEntryCollector: Sendable {
    private var buffer = ""
    private var depth = 0
    private var start = 0
    private var inString = false
    private var escape = false

    /// Feeds one line; returns the entry an object closed on it completes, and how many objects were
    /// dropped (an object that never closes within ``LogLineParser/maxMessage``, or one that is no entry).
    mutating func feed(_ line: Substring, number: Int) -> (entry: LogLine?, dropped: Int) {
        var result: LogLine?
        var dropped = 0
        for character in line.unicodeScalars {
            if depth == 0 {
                if character == "{" {
                    depth = 1
                    buffer = "{"
                    start = number
                }
                continue
            }
            buffer.unicodeScalars.append(character)
            if inString {
                if escape { escape = false } else if character == "\\" { escape = true } else if character == "\"" { inString = false }
                continue
            }
            switch character {
            case "\"": inString = true
            case "{": depth += 1
            case "}":
                depth -= 1
                if depth == 0 {
                    result = Self.entry(buffer, number: start)
                    if result == nil { dropped += 1 }
                }
            default: break
            }
        }
        if depth > 0 { buffer.append("\n") }
        if buffer.utf8.count > LogLineParser.maxMessage {
            // An object that never closes: drop it and look for the next one.
            depth = 0
            inString = false
            escape = false
            buffer = ""
            dropped += 1
        }
        return (result, dropped)
    }

    private static func entry(_ text: String, number: Int) -> LogLine? {
        guard let value = try? JSONValueParser.parse(text), let stamp = value["timestamp"]?.stringValue,
            let time = LogTime.dateTime(Substring(stamp))
        else { return nil }
        let path = value["processImagePath"]?.stringValue ?? ""
        let process = path.split(separator: "/").last.map(String.init) ?? ""
        return LogLine(number: number, timestamp: time.ns, hasDate: true, zone: time.zone, process: process,
                       pid: value["processID"]?.intValue, subsystem: value["subsystem"]?.stringValue,
                       category: value["category"]?.stringValue, message: value["eventMessage"]?.stringValue ?? "")
    }
}
