import Foundation
import LifetraceCore

/// What `lifetrace import` takes for the parts of a time that a capture does not print: the year
/// (idevicesyslog prints `Aug  7 11:42:43`) and the zone (idevicesyslog, `log --style compact` and the older
/// Xcode console print none). The header records what was taken (`year_assumed`, `time_zone_assumed`).
public struct TimeAssumptions: Sendable, Hashable {
    /// The year of the capture's first entry, as given (`--year`); `nil` takes ``defaultYear``.
    public var year: Int?
    /// The zone of a capture that prints none, as given (`--time-zone`), normalized to `±HHMM`; `nil` takes UTC.
    public var zone: String?
    /// The year taken when none is given: the current year where the importer runs.
    public var defaultYear: Int

    /// Assumptions as given; `zone` is read by ``normalizedZone(_:)`` (an unreadable zone is UTC).
    public init(year: Int? = nil, zone: String? = nil, defaultYear: Int? = nil) {
        self.year = year
        self.zone = zone.flatMap { Self.normalizedZone($0) }
        self.defaultYear = defaultYear ?? Self.currentYear()
    }

    /// The year taken for a capture without years.
    var effectiveYear: Int64 { Int64(year ?? defaultYear) }

    /// The zone taken for a capture without zones, as `±HHMM`.
    var effectiveZone: String { zone ?? "+0000" }

    /// Seconds east of UTC of ``effectiveZone``.
    var effectiveOffset: Int64 { LogTime.zoneOffset(effectiveZone) ?? 0 }

    /// `+0700`, `-05:00`, `+05`, `UTC`, `GMT`, `Z`, as `±HHMM`; `nil` for anything else.
    public static func normalizedZone(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if ["UTC", "GMT", "Z", "utc", "gmt", "z"].contains(trimmed) { return "+0000" }
        guard let sign = trimmed.first, sign == "+" || sign == "-" else { return nil }
        let digits = trimmed.dropFirst().filter { $0 != ":" }
        guard digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), digits.count == 2 || digits.count == 4 else {
            return nil
        }
        let hhmm = digits.count == 2 ? digits + "00" : digits
        guard let value = Int(hhmm), value / 100 <= 14, value % 100 < 60 else { return nil }
        return String(sign) + hhmm
    }

    /// The current year (UTC).
    static func currentYear() -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar.component(.year, from: Date())
    }
}

/// The dates of a capture that prints the month and day but no year (idevicesyslog): the first entry's is in the
/// assumed year, and each later one in the year, of the one before, that one or the next, that puts it nearest
/// the entry before it. A capture across New Year moves to the next year, and a line that comes a few seconds
/// late across it (December after January) stays in the year before, without moving the entries after it.
struct CaptureCalendar: Sendable {
    /// The year of the entry before.
    private var year: Int64
    /// Days since 1970 of the entry before; `nil` before the first.
    private var last: Int64?
    /// The month and day of the entry before: most entries are of the same day, found again with no arithmetic.
    private var lastMonth: Int64 = 0
    private var lastDay: Int64 = 0

    init(year: Int64) {
        self.year = year
    }

    /// Days since 1970 of `month`/`day` in the year nearest the entry before; `nil` if that year has no such
    /// day (February 29 outside a leap year, April 31), which says the assumed year is not the capture's.
    mutating func days(month: Int64, day: Int64) -> Int64? {
        if let last, month == lastMonth, day == lastDay { return last }
        var chosen = year
        if let last {
            var distance = Int64.max
            for candidate in year - 1...year + 1 {
                let gap = abs(LogTime.days(year: candidate, month: month, day: day) - last)
                if gap < distance { (chosen, distance) = (candidate, gap) }
            }
        }
        // A day past the month's end is in no month of that year. Told from the days alone: the year may be one
        // whose nanoseconds no trace holds, which the entry's time says (``DateOutOfRange``).
        let days = LogTime.days(year: chosen, month: month, day: day)
        let nextMonth =
            month == 12
            ? LogTime.days(year: chosen + 1, month: 1, day: 1)
            : LogTime.days(year: chosen, month: month + 1, day: 1)
        guard day >= 1, days < nextMonth else { return nil }
        (year, last, lastMonth, lastDay) = (chosen, days, month, day)
        return days
    }

    /// The year of the entry read last.
    var currentYear: Int64 { year }
}
