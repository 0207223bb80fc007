/// The textual forms of unified-log captures lifetrace reads.
public enum LogFormat: String, Sendable, CaseIterable {
    /// Lines copied out of Console: `level<TAB>HH:MM:SS.ffffff±zzzz<TAB>process<TAB>message`.
    case console
    /// `log stream` / `log show` default style: `date time±zone  thread  type  activity  pid  ttl  process: (sender) [subsystem:category] message`.
    case logDefault = "log-default"
    /// `log stream` / `log show --style compact`: `date time Ty process[pid:thread] [subsystem:category] message`.
    case logCompact = "log-compact"
    /// `log stream --style ndjson`, or `log show --style json` (an array of the same objects).
    case json

    /// The format of a capture, told from one of its first entry lines; `nil` if the line is none of them.
    static func detect(_ line: Substring) -> LogFormat? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") { return .json }
        if let tab = line.firstIndex(of: "\t"), LogTime.timeOfDay(line[line.index(after: tab)...]) != nil {
            return .console
        }
        guard let stamp = LogTime.dateTime(line) else { return nil }
        let rest = line.dropFirst(stamp.length).drop { $0 == " " }
        return rest.hasPrefix("0x") ? .logDefault : .logCompact
    }
}
