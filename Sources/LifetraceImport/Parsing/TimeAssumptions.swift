import Foundation

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

/// The dates of a capture that prints the month and day but no year (idevicesyslog): the year is the assumed
/// one until the month goes back (December to January), when it is the next.
struct CaptureCalendar: Sendable {
    private var year: Int64
    private var lastMonth: Int64 = 0

    init(year: Int64) {
        self.year = year
    }

    /// Days since 1970 of `month`/`day` in the capture's current year, moving to the next year when the
    /// month went back by more than a month (a capture across New Year).
    mutating func days(month: Int64, day: Int64) -> Int64 {
        if lastMonth != 0, month + 1 < lastMonth { year += 1 }
        lastMonth = month
        return LogTime.days(year: year, month: month, day: day)
    }
}
