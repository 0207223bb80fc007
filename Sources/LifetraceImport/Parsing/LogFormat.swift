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
    /// `idevicesyslog` (libimobiledevice): `Mon dd HH:MM:SS [device ]process(library)[pid] <Level>: message`
    /// (``SyslogRelayLine``); no year, no zone.
    case idevicesyslog
    /// Xcode's debug console: `date time.fraction[±zone] Process[pid:thread] message` (``XcodeConsoleLine``).
    case xcode

    /// The format of a capture, told from one of its entry lines; `nil` if the line is none of them.
    ///
    /// A line is an entry only where it starts like one *and* goes on with the format's process column: a
    /// date quoted inside a message (`2017-08-07 11:42:42 -0400 apsd[84]: ...`) is none.
    static func detect(_ line: Substring) -> LogFormat? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        // `{"timestamp"...` (ndjson), or `[{` / `[` / `{` alone (`--style json`); not `[a link](...)`.
        if trimmed.hasPrefix("{\"") || trimmed.hasPrefix("[{") || trimmed == "[" || trimmed == "{" { return .json }
        if ConsoleColumns.detect(line) != nil { return .console }
        if SyslogRelayLine.fields(line) != nil { return .idevicesyslog }
        // `log` and Xcode print the time with a fraction: a date a person or a daemon quotes rarely has one.
        guard let stamp = LogTime.dateTime(line), stamp.length > 20 else { return nil }
        let rest = UTF8Search.dropFirst(stamp.length, bytesOf: line)
        let columns = rest.drop { $0 == " " }
        if columns.hasPrefix("0x") { return .logDefault }
        // Compact style's second column is a type of at most two letters, then `process[pid:tid]`.
        let first = columns.prefix { $0 != " " }
        if !first.isEmpty, first.count <= 2, first.allSatisfy(\.isLetter),
            XcodeConsoleLine.processColumn(columns.dropFirst(first.count).drop(while: { $0 == " " })) != nil
        {
            return .logCompact
        }
        // Xcode's console: one space, then `Process[pid:thread]`.
        if rest.hasPrefix(" "), XcodeConsoleLine.processColumn(rest.dropFirst()) != nil { return .xcode }
        // Syslog style's second column is the host name, followed by `process[pid]:`.
        if first.count > 2, columns.contains("]: ") { return .logSyslog }
        return nil
    }
}
