import LifetraceCore

/// The lines of idevicesyslog and of Xcode's console.
extension LogLineParser {
    /// `Aug  7 11:42:43 Jane-iPhone SpringBoard(AssertionServices)[53] <Notice>: message` (``SyslogRelayLine``):
    /// the year and the zone are the assumed ones; launchd's job goes to ``LogLine/subsystem``, as in a Console
    /// copy. The library in parentheses (the sender) is dropped, as the other formats' `(sender)` is.
    mutating func syslogRelay(_ line: Substring, number: Int) -> LogLine? {
        guard let fields = SyslogRelayLine.fields(line) else { return nil }
        if calendar == nil {
            calendar = CaptureCalendar(year: assumptions.effectiveYear)
            assumedYear = true
            assumedZone = true
        }
        guard let days = calendar!.days(month: fields.month, day: fields.day) else {
            // The line is an entry, but of no date of the year taken: the capture's year is another one.
            if impossibleDate == nil {
                impossibleDate = ImpossibleDate(
                    line: number, month: fields.month, day: fields.day,
                    year: Int(calendar!.currentYear))
            }
            return nil
        }
        guard
            let timestamp = LogTime.instant(
                days: days, timeOfDay: fields.timeOfDay,
                offsetSeconds: assumptions.effectiveOffset)
        else { return refuse(number, .outsideSupportedRange) }
        let device = self.device.name
        let (process, disproved) = self.device.process(fields.name)
        if disproved, let device, pending != nil {
            // The entry before was read as if the capture had a device column: its process lost a word.
            pending!.process = device + " " + pending!.process
        }
        return LogLine(
            number: number, timestamp: timestamp, hasDate: true, zone: assumptions.effectiveZone,
            process: String(process), pid: fields.pid, subsystem: fields.label.map(String.init),
            message: String(fields.message))
    }

    /// `2020-10-11 08:54:01.927263+0700 TestBgTask[381:16973] message` (``XcodeConsoleLine``); zone assumed if none.
    mutating func xcode(_ line: Substring, number: Int) -> LogLine? {
        guard let stamp = LogTime.dateTime(line), stamp.length > 20 else { return nil }
        let rest = UTF8Search.dropFirst(stamp.length, bytesOf: line)
        guard rest.utf8.first == UInt8(ascii: " "),
            let column = XcodeConsoleLine.processColumn(UTF8Search.dropFirst(1, bytesOf: rest))
        else { return nil }
        guard let (timestamp, zone) = zoned(stamp) else { return refuse(number, .outsideSupportedRange) }
        return LogLine(
            number: number, timestamp: timestamp, hasDate: true, zone: zone, process: String(column.process),
            pid: column.pid, message: String(column.message))
    }

    /// A stamp's time in UTC and its zone: the assumed one where it prints none; `nil` for a time no trace holds.
    mutating func zoned(_ stamp: (ns: Int64?, zone: String?, length: Int)) -> (Int64, String)? {
        guard let ns = stamp.ns else { return nil }
        if let zone = stamp.zone { return (ns, zone) }
        assumedZone = true
        return LogTime.shifted(ns, bySeconds: assumptions.effectiveOffset).map { ($0, assumptions.effectiveZone) }
    }
}
