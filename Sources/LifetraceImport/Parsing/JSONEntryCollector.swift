import LifetraceCore

/// Collects the JSON objects of `log stream --style ndjson` (one a line) and `log show --style json` (an
/// array, one key a line) and reads each as an entry.
struct JSONEntryCollector: Sendable {
    private var buffer = ""
    private var depth = 0
    private var start = 0
    private var inString = false
    private var escape = false
    /// The line of the first object whose timestamp is a date no trace holds (``DateOutOfRange``).
    private(set) var outOfRangeLine: Int?

    /// Feeds one line; returns the entry an object closed on it completes, and how many objects or lines were
    /// dropped: an object cut short (one still open when a line begins the next, or whose line ends inside a
    /// string, which JSON does not break), one that never closes within ``LogLineParser/maxMessage``, one that
    /// is no entry, and a line of text between objects.
    mutating func feed(_ line: Substring, number: Int) -> (entry: LogLine?, dropped: Int) {
        var result: LogLine?
        var dropped = 0
        let text = line.drop { $0 == " " || $0 == "\t" }
        if depth > 0, text.hasPrefix("{\"") {
            // `log stream --style ndjson` writes an object a line, `log show --style json` its keys a line
            // each: an object still open when a line begins another was cut short.
            reset()
            dropped += 1
        } else if depth == 0, let first = text.first, !"{[],".contains(first) {
            dropped += 1
        }
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
                if escape {
                    escape = false
                } else if character == "\\" {
                    escape = true
                } else if character == "\"" {
                    inString = false
                }
                continue
            }
            switch character {
            case "\"": inString = true
            case "{": depth += 1
            case "}":
                depth -= 1
                if depth == 0 {
                    let (entry, outOfRange) = Self.entry(buffer, number: start)
                    result = entry
                    if outOfRange, outOfRangeLine == nil { outOfRangeLine = start }
                    if result == nil, !outOfRange { dropped += 1 }
                }
            default: break
            }
        }
        if depth > 0, inString || buffer.utf8.count > LogLineParser.maxMessage {
            // A line that ends inside a string was cut there; an object that never closes is no entry either:
            // drop it and look for the next one.
            reset()
            dropped += 1
        }
        if depth > 0 { buffer.append("\n") }
        return (result, dropped)
    }

    /// Ends the input: 1 if an object was still open (the capture was cut inside it), else 0.
    mutating func finish() -> Int {
        guard depth > 0 else { return 0 }
        reset()
        return 1
    }

    private mutating func reset() {
        depth = 0
        inString = false
        escape = false
        buffer = ""
    }

    /// The entry the object `text` holds, if any; whether its timestamp is a date no trace holds.
    private static func entry(_ text: String, number: Int) -> (LogLine?, outOfRange: Bool) {
        guard let value = try? JSONValueParser.parse(text), let stamp = value["timestamp"]?.stringValue,
            let time = LogTime.dateTime(Substring(stamp))
        else { return (nil, false) }
        guard let ns = time.ns else { return (nil, true) }
        let path = value["processImagePath"]?.stringValue ?? ""
        let process = path.split(separator: "/").last.map(String.init) ?? ""
        return (
            LogLine(
                number: number, timestamp: ns, hasDate: true, zone: time.zone, process: process,
                pid: value["processID"]?.intValue, subsystem: value["subsystem"]?.stringValue,
                category: value["category"]?.stringValue, message: value["eventMessage"]?.stringValue ?? ""),
            false
        )
    }
}
