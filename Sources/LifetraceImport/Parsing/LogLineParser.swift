import LifetraceCore

/// Turns the physical lines of a capture into ``LogLine`` entries, joining continuation lines.
///
/// One parser per capture: the format is detected from the first entry line, then every line either starts
/// an entry of that format or continues the previous entry's message.
struct LogLineParser {
    private(set) var format: LogFormat?
    /// For Console copies, the columns they hold.
    private var columns: ConsoleColumns?
    var pending: LogLine?
    /// Whether a line that starts no entry continues the pending entry's message: until a blank line or a
    /// Markdown fence, which end a capture pasted into a note or an issue.
    private var continuing = false
    private var json = JSONEntryCollector()
    /// For captures without dates: the day added to times of day that went backwards (midnight passed).
    private var dayOffset: Int64 = 0
    private var lastTimeOfDay: Int64 = 0
    /// What is taken for the year and the zone a capture does not print.
    let assumptions: TimeAssumptions
    /// For idevicesyslog captures: the year of each month and day, and the device column.
    var calendar: CaptureCalendar?
    var device = SyslogRelayDevice()
    /// Whether entries were read with the assumed year, and with the assumed zone.
    var assumedYear = false
    var assumedZone = false
    /// The first lines of the input while no format is known (at most three, shortened): what a refusal shows.
    private(set) var firstLines: [String] = []
    /// The most of a message (or of one JSON object) kept, in bytes.
    static let maxMessage = 1 << 20
    /// Lines with text that is neither an entry nor a continuation: prose around a pasted capture, header
    /// lines such as `Timestamp Thread Type ...`, fragments of entries. Blank lines and fences are not counted.
    private(set) var skippedLines = 0
    /// Lines whose entry came after other text on the same line (`here is the log: default<TAB>...`).
    private(set) var skippedPrefixes = 0
    /// The first entry whose month and day are no date of the year taken (idevicesyslog prints none).
    var impossibleDate: ImpossibleDate?
    /// The first entry whose time no trace holds: a date before 1678 or after 2262, or more than 292 years from
    /// another entry's.
    private(set) var outOfRange: DateOutOfRange?
    /// The earliest and latest entries so far.
    private var span = CaptureSpan()

    init(assumptions: TimeAssumptions = TimeAssumptions()) {
        self.assumptions = assumptions
    }

    /// Feeds one physical line; returns the entry the line completes, if any.
    mutating func feed(_ line: Substring, number: Int) -> LogLine? {
        if format == nil {
            if LogFormat.detect(line) == .json { format = .json } else { note(line) }
        }
        if format == .json {
            let (entry, dropped) = json.feed(line, number: number)
            skippedLines += dropped
            if let outside = json.outOfRangeLine { refuse(outside, .outsideSupportedRange) }
            guard let entry else { return nil }
            return admitted(entry)
        }
        if let entry = entry(line, number: number) { return begin(entry) }
        if Self.endsContinuation(line) || (format != .console && SyslogRelayLine.isBanner(line)) {
            // A blank line or a fence ends a paste's message; idevicesyslog's `[connected]` is no text at all.
            continuing = false
            return nil
        }
        // A quote or list marker before an entry (`> `, `, `, `* `): the entry starts after it.
        if let first = line.first, Self.marks.contains(first) {
            let rest = line.drop { Self.marks.contains($0) || $0 == " " }
            if !rest.isEmpty, let entry = entry(rest, number: number) {
                skippedPrefixes += 1
                return begin(entry)
            }
        }
        // Xcode's console printed some entries with a space before them (an old capture's runs): an indented line
        // that holds a whole entry is one, not the previous message's text.
        if format == .xcode, line.first == " " {
            let rest = line.drop { $0 == " " }
            if !rest.isEmpty, let entry = entry(rest, number: number) { return begin(entry) }
        }
        if format == .xcode, !continuing, pending != nil, line.hasPrefix(XcodeConsoleLine.debuggerMessage) {
            // Xcode's debugger's own line about the process it runs (`Message from debugger: Terminated due to
            // signal 9`) has no time: it belongs to the run whose last entry is pending, even where a paste put it
            // in a fence of its own.
            if pending!.message.utf8.count < Self.maxMessage { pending!.message += "\n" + line }
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

    /// Keeps the first lines read while no format is known, for a refusal to show.
    private mutating func note(_ line: Substring) {
        guard firstLines.count < 3, !Self.endsContinuation(line) else { return }
        firstLines.append(line.count > 100 ? String(line.prefix(100)) + "..." : String(line))
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

    /// The last entry, at the end of the input.
    mutating func finish() -> LogLine? {
        if format == .json { skippedLines += json.finish() }
        defer { pending = nil }
        return pending
    }

    /// The entry `line` starts, if its time is one a trace holds with the entries' before it.
    private mutating func parseEntry(_ line: Substring, number: Int) -> LogLine? {
        guard let entry = parseFormatted(line, number: number) else { return nil }
        return admitted(entry)
    }

    /// `entry`, if it is within 292 years of every entry before it; else `nil`, noted in ``outOfRange``.
    private mutating func admitted(_ entry: LogLine) -> LogLine? {
        guard outOfRange == nil else { return nil }
        if let other = span.admit(entry.timestamp, line: entry.number) {
            refuse(entry.number, .tooFarFrom(line: other))
            return nil
        }
        return entry
    }

    /// Notes the first entry whose time no trace holds; returns `nil`, which no entry is.
    @discardableResult
    mutating func refuse(_ number: Int, _ reason: DateOutOfRange.Reason) -> LogLine? {
        if outOfRange == nil { outOfRange = DateOutOfRange(line: number, reason: reason) }
        return nil
    }

    private mutating func parseFormatted(_ line: Substring, number: Int) -> LogLine? {
        switch format {
        case .console?: return console(line, number: number)
        case .logDefault?: return logDefault(line, number: number)
        case .logCompact?: return logCompact(line, number: number)
        case .logSyslog?: return logSyslog(line, number: number)
        case .idevicesyslog?: return syslogRelay(line, number: number)
        case .xcode?: return xcode(line, number: number)
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
        var bounds:
            (
                Range<String.Index>, Range<String.Index>, Range<String.Index>, Range<String.Index>,
                Range<String.Index>
            ) = (start..<start, start..<start, start..<start, start..<start, start..<start)
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
        guard var timestamp = stamp.ns else { return refuse(number, .outsideSupportedRange) }
        if !stamp.hasDate {
            // A time of day (below a day) read past midnight as often as it went back by more than six hours.
            if timestamp + 6 * 3_600_000_000_000 < lastTimeOfDay {
                let (next, overflow) = dayOffset.addingReportingOverflow(LogTime.nanosecondsPerDay)
                guard !overflow else { return refuse(number, .tooManyDays) }
                dayOffset = next
            }
            lastTimeOfDay = timestamp
            let (shifted, overflow) = timestamp.addingReportingOverflow(dayOffset)
            guard !overflow else { return refuse(number, .tooManyDays) }
            timestamp = shifted
        }
        return LogLine(
            number: number, timestamp: timestamp, hasDate: stamp.hasDate, zone: stamp.zone,
            process: String(line[processBounds]), subsystem: subsystem, category: category,
            message: String(message))
    }

    /// `2026-10-08 11:59:59.318123-0700  0x159e4  Default  0x0  31848  0  App: (UIKitCore) [com.apple.UIKit:Lifecycle] message`
    private mutating func logDefault(_ line: Substring, number: Int) -> LogLine? {
        guard let stamp = LogTime.dateTime(line) else { return nil }
        var rest = UTF8Search.dropFirst(stamp.length, bytesOf: line)
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
        guard let timestamp = stamp.ns else { return refuse(number, .outsideSupportedRange) }
        return LogLine(
            number: number, timestamp: timestamp, hasDate: true, zone: stamp.zone, process: String(process),
            pid: Int64(pid), subsystem: subsystem, category: category, message: String(text))
    }

    /// `2026-10-08 11:59:59.318 Df BareExample[31848:159e4] [com.apple.UIKit:BackgroundTask] message`
    private mutating func logCompact(_ line: Substring, number: Int) -> LogLine? {
        guard let stamp = LogTime.dateTime(line) else { return nil }
        var rest = UTF8Search.dropFirst(stamp.length, bytesOf: line).drop { $0 == " " }
        let type = rest.prefix { $0 != " " }
        guard !type.isEmpty, type.count <= 2 else { return nil }
        rest = rest.dropFirst(type.count).drop { $0 == " " }
        guard let open = rest.firstIndex(of: "["), let close = rest[open...].firstIndex(of: "]") else { return nil }
        let process = rest[..<open]
        let ids = rest[rest.index(after: open)..<close].split(separator: ":")
        let message = rest[rest.index(after: close)...].drop { $0 == " " }
        let (subsystem, category, text) = Self.subsystemCategory(message)
        // The style prints no zone: the assumed one (UTC unless told).
        guard let (timestamp, zone) = zoned(stamp) else { return refuse(number, .outsideSupportedRange) }
        return LogLine(
            number: number, timestamp: timestamp, hasDate: true, zone: zone, process: String(process),
            pid: ids.first.flatMap { Int64($0) }, subsystem: subsystem, category: category, message: String(text))
    }

    /// `2019-08-23 17:08:45.211461+0300  localhost SpringBoard[20455]: (UIKitCore) [com.apple.UIKit:Lifecycle] message`
    private mutating func logSyslog(_ line: Substring, number: Int) -> LogLine? {
        guard let stamp = LogTime.dateTime(line) else { return nil }
        var rest = UTF8Search.dropFirst(stamp.length, bytesOf: line).drop { $0 == " " }
        let host = rest.prefix { $0 != " " }
        guard !host.isEmpty else { return nil }
        rest = rest.dropFirst(host.count).drop { $0 == " " }
        // Searched after the host: a host column holding `]: ` must not end the process column before it begins.
        guard let colon = UTF8Search.range(of: "]: ", in: rest) else { return nil }
        let head = rest[..<colon.lowerBound]
        guard let open = head.lastIndex(of: "[") else { return nil }
        var message = rest[colon.upperBound...]
        if message.hasPrefix("("), let close = message.firstIndex(of: ")") {
            message = message[message.index(after: close)...].drop { $0 == " " }
        }
        let (subsystem, category, text) = Self.subsystemCategory(message)
        guard let timestamp = stamp.ns else { return refuse(number, .outsideSupportedRange) }
        return LogLine(
            number: number, timestamp: timestamp, hasDate: true, zone: stamp.zone, process: String(head[..<open]),
            pid: Int64(head[head.index(after: open)...]), subsystem: subsystem, category: category,
            message: String(text))
    }
}
