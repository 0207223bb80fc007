/// Which columns a Console copy holds.
///
/// Console copies the columns it shows, separated by tabs, in the order it shows them: the message type
/// (`default`, `info`, `error`...), the time (`20:42:13.601596-0500`, or with the date,
/// `2025-01-25 13:16:11.060132 -0500`), the process, optionally the subsystem and category, and the message.
/// The layout is told from the capture's first entry and holds for the rest of it.
struct ConsoleColumns: Sendable, Hashable {
    /// Whether the first column is the message type (Console's default), rather than the time.
    var hasType: Bool
    /// Whether the subsystem and category columns come between the process and the message.
    var hasSubsystemAndCategory: Bool

    /// The layout of `line`, if it is a Console entry.
    static func detect(_ line: Substring) -> ConsoleColumns? {
        var fields = line.split(separator: "\t", maxSplits: 5, omittingEmptySubsequences: false)[...]
        guard fields.count >= 3 else { return nil }
        let hasType: Bool
        if stamp(fields[fields.startIndex]) != nil {
            hasType = false
        } else {
            let type = fields[fields.startIndex]
            guard !type.isEmpty, !type.contains(" "), fields.count >= 4, stamp(fields[fields.startIndex + 1]) != nil
            else {
                return nil
            }
            hasType = true
        }
        fields = fields.dropFirst(hasType ? 3 : 2)  // the message, or the subsystem, category and message
        // Subsystems are reverse-DNS names; a message rarely holds two tabs after one such word.
        let subsystem = fields.first ?? ""
        let withSubsystem = fields.count >= 3 && subsystem.contains(".") && !subsystem.contains(" ")
        return ConsoleColumns(hasType: hasType, hasSubsystemAndCategory: withSubsystem)
    }

    /// The time column: `HH:MM:SS.ffffff±zzzz`, or `YYYY-MM-DD HH:MM:SS.ffffff ±zzzz` (the zone after a space,
    /// or right after the time). `ns` is `nil` for a date outside what a trace holds (``DateOutOfRange``).
    static func stamp(_ field: Substring) -> (ns: Int64?, hasDate: Bool, zone: String?)? {
        if let time = LogTime.timeOfDay(field) {
            let zone = field.dropFirst(time.length)
            guard zone.isEmpty || LogTime.zoneOffset(zone) != nil else { return nil }
            return (time.ns, false, zone.isEmpty ? nil : String(zone))
        }
        guard let date = LogTime.dateTime(field) else { return nil }
        if let zone = date.zone { return (date.ns, true, zone) }
        let rest = field.dropFirst(date.length).drop { $0 == " " }
        if rest.isEmpty { return (date.ns, true, nil) }
        guard let offset = LogTime.zoneOffset(rest) else { return nil }
        return (date.ns.flatMap { LogTime.shifted($0, bySeconds: offset) }, true, String(rest))
    }
}
