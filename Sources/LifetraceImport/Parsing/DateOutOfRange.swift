/// An entry whose time no trace can hold: a trace counts 64-bit nanoseconds, so its dates lie between 1678 and
/// 2262 and its times at most 292 years apart. Whether the date is printed (`2263-01-01`), taken (`--year`, a
/// capture without years whose months keep crossing New Year) or counted (a Console copy without dates whose
/// time of day keeps going back past midnight), such an entry is bad input, not an overflow.
/// ``LogImporter`` stops at the first.
public struct DateOutOfRange: Sendable, Hashable {
    /// Why the entry's time cannot be held.
    public enum Reason: Sendable, Hashable {
        /// Its date, as printed or taken, is before 1678 or after 2262.
        case outsideSupportedRange
        /// It is more than 292 years (2^63 ns) from the entry on this line, the capture's earliest or latest.
        case tooFarFrom(line: Int)
        /// A capture without dates: its times of day went back past midnight more often than 292 years hold.
        case tooManyDays
    }

    /// The entry's line in the capture, from 1.
    public var line: Int
    /// Why its time cannot be held.
    public var reason: Reason

    /// Creates the refusal of the entry on `line`.
    public init(line: Int, reason: Reason) {
        self.line = line
        self.reason = reason
    }

    /// What is wrong, for a person: `the entry's date is outside what a trace holds (1678 to 2262)`.
    public var message: String {
        switch reason {
        case .outsideSupportedRange:
            return "the entry's date is outside what a trace holds (1678 to 2262)"
        case .tooFarFrom(let other):
            return "the entry is more than 292 years from line \(other)'s: a trace's times span at most 292 years"
        case .tooManyDays:
            return "the capture's time of day went back past midnight more often than a trace holds (292 years of days)"
        }
    }
}
