/// A UTC date and time of the proleptic Gregorian calendar, computed from and to nanoseconds since 1970 with
/// integer arithmetic alone (Howard Hinnant's `days_from_civil` and `civil_from_days`): no `time_t`, which is
/// 32 bits on Apple Watch, and no Foundation formatting on the paths that print times.
package struct CivilTime: Equatable, Sendable {
    package var year: Int64
    package var month: Int64
    package var day: Int64
    package var hour: Int64
    package var minute: Int64
    package var second: Int64
    package var nanosecond: Int64

    /// A date and time given field by field.
    package init(year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64, nanosecond: Int64) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.nanosecond = nanosecond
    }

    /// The date and time `unixNanoseconds` after 1970-01-01 00:00:00 UTC (before it, if negative).
    package init(unixNanoseconds: Int64) {
        let nanosecondsPerDay: Int64 = 86_400_000_000_000
        var days = unixNanoseconds / nanosecondsPerDay
        if unixNanoseconds % nanosecondsPerDay < 0 { days -= 1 }
        var rest = unixNanoseconds - days * nanosecondsPerDay
        hour = rest / 3_600_000_000_000
        rest -= hour * 3_600_000_000_000
        minute = rest / 60_000_000_000
        rest -= minute * 60_000_000_000
        second = rest / 1_000_000_000
        nanosecond = rest - second * 1_000_000_000
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days from 1970-01-01 to `year`-`month`-`day` (negative before it). `month` is 1 to 12.
    package static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// `value` in decimal, with leading zeros to `width` digits.
    package static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
