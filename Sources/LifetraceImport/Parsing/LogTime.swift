import LifetraceCore

/// Reads the date and time forms of unified-log captures, without Foundation.
enum LogTime {
    /// `HH:MM:SS` with an optional `.fraction`: nanoseconds since midnight, and the characters read.
    static func timeOfDay<S: StringProtocol>(_ text: S) -> (ns: Int64, length: Int)? {
        withPrefix(text, 20) { timeOfDay(bytes: $0) }
    }

    /// `HH:MM:SS[.fraction]` at the start of `utf8` (the fraction as long as digits follow).
    static func timeOfDay(bytes utf8: UnsafeBufferPointer<UInt8>) -> (ns: Int64, length: Int)? {
        guard utf8.count >= 8, utf8[2] == UInt8(ascii: ":"), utf8[5] == UInt8(ascii: ":"),
            let hours = digits(utf8[0..<2]), let minutes = digits(utf8[3..<5]), let seconds = digits(utf8[6..<8]),
            hours < 24, minutes < 60, seconds < 61
        else { return nil }
        var ns = ((hours * 60 + minutes) * 60 + seconds) * 1_000_000_000
        var length = 8
        if utf8.count > 9, utf8[8] == UInt8(ascii: ".") {
            var scale: Int64 = 100_000_000
            var index = 9
            while index < utf8.count, let digit = digit(utf8[index]) {
                if scale > 0 { ns += Int64(digit) * scale }
                scale /= 10
                index += 1
            }
            guard index > 9 else { return nil }
            length = index
        }
        return (ns, length)
    }

    /// `YYYY-MM-DD`: days since 1970-01-01.
    static func date<S: StringProtocol>(_ text: S) -> Int64? {
        withPrefix(text, 10) { date(bytes: $0) }
    }

    private static func date(bytes utf8: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard utf8.count == 10, utf8[4] == UInt8(ascii: "-"), utf8[7] == UInt8(ascii: "-"),
            let year = digits(utf8[0..<4]), let month = digits(utf8[5..<7]), let day = digits(utf8[8..<10]),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        return CivilTime.days(year: year, month: month, day: day)
    }

    /// `+0500`, `-0800`, `+05:30`: seconds east of UTC.
    static func zoneOffset<S: StringProtocol>(_ text: S) -> Int64? {
        zoneOffset(bytes: text.utf8)
    }

    private static func zoneOffset<C: Collection<UInt8>>(bytes: C) -> Int64? {
        // A sign and four digits, colons skipped; read in one pass, as it runs for every dated entry.
        var sign: UInt8 = 0
        var hhmm: Int64 = 0
        var count = 0
        for byte in bytes where byte != UInt8(ascii: ":") {
            if count == 0 {
                guard byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") else { return nil }
                sign = byte
            } else {
                guard count < 5, let digit = digit(byte) else { return nil }
                hhmm = hhmm * 10 + Int64(digit)
            }
            count += 1
        }
        guard count == 5 else { return nil }
        let seconds = (hhmm / 100 * 60 + hhmm % 100) * 60
        return sign == UInt8(ascii: "-") ? -seconds : seconds
    }

    /// `2026-10-08 11:59:59.318123-0700` (zone optional): nanoseconds since 1970 UTC, the zone, the length.
    /// `ns` is `nil` for a date and time outside what 64-bit nanoseconds hold (1678 to 2262): an entry all the
    /// same, whose time no trace can hold.
    static func dateTime<S: StringProtocol>(_ text: S) -> (ns: Int64?, zone: String?, length: Int)? {
        // The date (10 bytes), a separator, the time of day (at most 20) and a zone (5): 36 bytes, read off a
        // copy on the stack, as this runs for every dated entry.
        withPrefix(text, 36) { dateTime(bytes: $0) }
    }

    private static func dateTime(bytes utf8: UnsafeBufferPointer<UInt8>) -> (ns: Int64?, zone: String?, length: Int)? {
        guard utf8.count > 11, let days = date(bytes: UnsafeBufferPointer(rebasing: utf8[0..<10])),
            let time = timeOfDay(bytes: UnsafeBufferPointer(rebasing: utf8[11..<min(utf8.count, 31)]))
        else { return nil }
        var length = 11 + time.length
        var zone: String?
        var offset: Int64 = 0
        if length < utf8.count, utf8[length] == UInt8(ascii: "+") || utf8[length] == UInt8(ascii: "-") {
            let candidate = UnsafeBufferPointer(rebasing: utf8[length..<min(utf8.count, length + 5)])
            if let seconds = zoneOffset(bytes: candidate) {
                offset = seconds
                zone = String(decoding: candidate, as: UTF8.self)
                length += 5
            }
        }
        return (instant(days: days, timeOfDay: time.ns, offsetSeconds: offset), zone, length)
    }

    /// Nanoseconds in a day.
    static let nanosecondsPerDay: Int64 = 86_400_000_000_000

    /// Nanoseconds since 1970 UTC of the time of day `timeOfDay` (nanoseconds) on the day `days` after
    /// 1970-01-01, in the zone `offsetSeconds` east of UTC: `nil` where that is outside what 64-bit nanoseconds
    /// hold (1678 to 2262). Every step is checked: dates are input.
    static func instant(days: Int64, timeOfDay: Int64, offsetSeconds: Int64) -> Int64? {
        let (dayStart, dayOverflow) = days.multipliedReportingOverflow(by: nanosecondsPerDay)
        guard !dayOverflow else { return nil }
        let (local, timeOverflow) = dayStart.addingReportingOverflow(timeOfDay)
        guard !timeOverflow else { return nil }
        return shifted(local, bySeconds: offsetSeconds)
    }

    /// `ns` (a local time) in UTC, for a zone `offsetSeconds` east of it; `nil` past what 64 bits hold.
    static func shifted(_ ns: Int64, bySeconds offsetSeconds: Int64) -> Int64? {
        let (shift, shiftOverflow) = offsetSeconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (utc, overflow) = ns.subtractingReportingOverflow(shift)
        return shiftOverflow || overflow ? nil : utc
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar.
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        CivilTime.days(year: year, month: month, day: day)
    }

    /// `Jan` ... `Dec` (the month as idevicesyslog prints it): 1 to 12.
    static func month(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Int64? {
        // The three letters as one number, compared with each month's.
        let key = UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c)
        return switch key {
        case 0x4A616E: 1  // Jan
        case 0x466562: 2  // Feb
        case 0x4D6172: 3  // Mar
        case 0x417072: 4  // Apr
        case 0x4D6179: 5  // May
        case 0x4A756E: 6  // Jun
        case 0x4A756C: 7  // Jul
        case 0x417567: 8  // Aug
        case 0x536570: 9  // Sep
        case 0x4F6374: 10  // Oct
        case 0x4E6F76: 11  // Nov
        case 0x446563: 12  // Dec
        default: nil
        }
    }

    @inline(__always)
    private static func digit(_ byte: UInt8) -> Int? {
        byte >= 0x30 && byte <= 0x39 ? Int(byte - 0x30) : nil
    }

    /// Calls `body` with the first `count` (at most 40) UTF-8 bytes of `text`: where they are stored, or copied
    /// to the stack where the text is not stored as UTF-8 in one piece.
    private static func withPrefix<S: StringProtocol, R>(
        _ text: S, _ count: Int,
        _ body: (UnsafeBufferPointer<UInt8>) -> R
    ) -> R {
        if let result = text.utf8.withContiguousStorageIfAvailable({
            body(UnsafeBufferPointer(rebasing: $0.prefix(min(count, 40))))
        }) {
            return result
        }
        var storage: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &storage) { raw in
            var length = 0
            for byte in text.utf8.prefix(min(count, raw.count)) {
                raw[length] = byte
                length += 1
            }
            return body(UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self).prefix(length)))
        }
    }

    private static func digits<C: Collection<UInt8>>(_ bytes: C) -> Int64? {
        var value: Int64 = 0
        for byte in bytes {
            guard let digit = digit(byte) else { return nil }
            value = value * 10 + Int64(digit)
        }
        return value
    }
}
