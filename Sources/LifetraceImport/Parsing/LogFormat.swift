/// The textual forms of unified-log captures lifetrace reads.
public enum LogFormat: String, Sendable, CaseIterable {
    /// Lines copied out of Console: tab-separated columns, `level<TAB>time<TAB>process<TAB>message` by default;
    /// ``ConsoleColumns`` says which layouts are read.
    case console
    /// `log stream` / `log show` default style: `date time±zone  thread  type  activity  pid  ttl  process: (sender) [subsystem:category] message`.
    case logDefault = "log-default"
    /// `log stream` / `log show --style compact`: `date time Ty process[pid:thread] [subsystem:category] message`.
    case logCompact = "log-compact"
    /// `log show --style syslog`: `date time±zone  host process[pid]: (sender) [subsystem:category] message`.
    case logSyslog = "log-syslog"
    /// `log stream --style ndjson`, or `log show --style json` (an array of the same objects).
    case json

    /// The format of a capture, told from one of its entry lines; `nil` if the line is none of them.
    static func detect(_ line: Substring) -> LogFormat? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        // `{"timestamp"...` (ndjson), or `[{` / `[` / `{` alone (`--style json`); not `[a link](...)`.
        if trimmed.hasPrefix("{\"") || trimmed.hasPrefix("[{") || trimmed == "[" || trimmed == "{" { return .json }
        if ConsoleColumns.detect(line) != nil { return .console }
        guard let stamp = LogTime.dateTime(line) else { return nil }
        let rest = line.dropFirst(stamp.length).drop { $0 == " " }
        if rest.hasPrefix("0x") { return .logDefault }
        // Compact style's second column is a type of at most two letters; syslog style's is the host name,
        // followed by `process[pid]:`.
        let first = rest.prefix { $0 != " " }
        if first.count > 2, rest.contains("]: ") { return .logSyslog }
        return .logCompact
    }
}
