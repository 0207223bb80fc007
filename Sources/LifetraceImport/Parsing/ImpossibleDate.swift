/// An entry of a capture that prints no year (idevicesyslog) whose month and day are no date of the year taken
/// for it — February 29 outside a leap year: the capture is from another year, and every time read from it
/// would be wrong. ``LogImporter`` stops at the first.
public struct ImpossibleDate: Sendable, Hashable {
    /// The entry's line in the capture, from 1.
    public var line: Int
    /// The month (1 to 12) and day the entry prints.
    public var month: Int64
    public var day: Int64
    /// The year taken for the entry.
    public var year: Int

    /// What is wrong and what to do, for a person: `Feb 29 is no date of 2025: give the capture's year with --year`.
    public var message: String {
        let names = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let name = (1...12).contains(month) ? names[Int(month) - 1] : "month \(month)"
        return "\(name) \(day) is no date of \(year): give the capture's year with --year"
    }
}
