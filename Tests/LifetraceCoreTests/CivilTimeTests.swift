import Foundation
import LifetraceCore
import Testing

/// Dates from nanoseconds and back with integer arithmetic, against Foundation's Gregorian calendar.
@Suite struct CivilTimeTests {
    @Test func knownInstants() {
        #expect(
            CivilTime(unixNanoseconds: 0)
                == CivilTime(year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0, nanosecond: 0))
        // 1,700,000,000 s: 2023-11-14 22:13:20 UTC.
        #expect(
            CivilTime(unixNanoseconds: 1_700_000_000_000_000_123)
                == CivilTime(year: 2023, month: 11, day: 14, hour: 22, minute: 13, second: 20, nanosecond: 123))
        // One nanosecond before 1970.
        #expect(
            CivilTime(unixNanoseconds: -1)
                == CivilTime(year: 1969, month: 12, day: 31, hour: 23, minute: 59, second: 59, nanosecond: 999_999_999))
        #expect(CivilTime.days(year: 2000, month: 3, day: 1) == 11_017)
        #expect(CivilTime.days(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilTime.padded(7, 3) == "007" && CivilTime.padded(1234, 2) == "1234")
    }

    @Test func agreesWithFoundationsCalendar() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            // 1678 to 2262: what 64-bit nanoseconds hold.
            let seconds = Int64.random(in: -9_000_000_000...9_000_000_000, using: &generator)
            let time = CivilTime(unixNanoseconds: seconds * 1_000_000_000)
            let parts = calendar.dateComponents(
                [.year, .month, .day, .hour, .minute, .second],
                from: Date(timeIntervalSince1970: Double(seconds)))
            #expect(
                [time.year, time.month, time.day, time.hour, time.minute, time.second].map(Int.init)
                    == [parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second].map { $0 ?? -1 },
                "\(seconds)")
            #expect(
                CivilTime.days(year: time.year, month: time.month, day: time.day) * 86_400
                    + (time.hour * 60 + time.minute) * 60 + time.second == seconds)
        }
    }

    /// A Double rounds into the 64-bit range, never past it.
    @Test func doublesRoundIntoTheRange() {
        #expect(Nanoseconds.rounded(1.5) == 2)
        #expect(Nanoseconds.rounded(Double(Int64.max)) == .max)
        #expect(Nanoseconds.rounded(-1e30) == .min)
        #expect(Nanoseconds.rounded(.nan) == 0)
        #expect(Nanoseconds.rounded(.infinity) == .max)
    }
}
