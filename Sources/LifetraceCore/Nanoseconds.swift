/// Formats nanosecond quantities for people, without Foundation.
public enum Nanoseconds {
    /// `value` rounded to whole nanoseconds, clamped to what an `Int64` holds (a percentile of values near
    /// 2^63 rounds to 2^63 as a `Double`, one past the range); 0 for NaN.
    public static func rounded(_ value: Double) -> Int64 {
        guard !value.isNaN else { return 0 }
        let whole = value.rounded()
        // 2^63, the first Double past Int64.max; -2^63 is Int64.min itself.
        if whole >= 0x1p63 { return .max }
        if whole <= -0x1p63 { return .min }
        return Int64(whole)
    }

    /// `12.345678s`: seconds with microsecond precision.
    public static func seconds(_ ns: Int64) -> String {
        let sign = ns < 0 ? "-" : ""
        let magnitude = ns.magnitude
        let whole = magnitude / 1_000_000_000
        let micros = (magnitude % 1_000_000_000) / 1000
        let fraction = String(micros)
        return sign + String(whole) + "." + String(repeating: "0", count: 6 - fraction.count) + fraction + "s"
    }

    /// A short human duration: `850ns`, `12.3µs`, `35.0ms`, `5.20s`, `3m20s`, `2h05m`.
    public static func short(_ ns: Int64) -> String {
        let magnitude = ns.magnitude
        func oneDecimal(_ value: UInt64, _ unit: UInt64, _ suffix: String) -> String {
            let tenths = (value * 10 + unit / 2) / unit
            return "\(tenths / 10).\(tenths % 10)\(suffix)"
        }
        let text: String
        switch magnitude {
        case ..<1000: text = "\(magnitude)ns"
        case ..<1_000_000: text = oneDecimal(magnitude, 1000, "µs")
        case ..<1_000_000_000: text = oneDecimal(magnitude, 1_000_000, "ms")
        case ..<60_000_000_000:
            let hundredths = (magnitude + 5_000_000) / 10_000_000
            text = "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)s"
        case ..<3_600_000_000_000:
            let seconds = magnitude / 1_000_000_000
            text = "\(seconds / 60)m\(seconds % 60 < 10 ? "0" : "")\(seconds % 60)s"
        default:
            let minutes = magnitude / 60_000_000_000
            text = "\(minutes / 60)h\(minutes % 60 < 10 ? "0" : "")\(minutes % 60)m"
        }
        return ns < 0 ? "-" + text : text
    }

    /// `seconds` in nanoseconds, or `nil` if it is negative, not finite, or 2^63 ns (about 292 years) or more.
    public static func fromSeconds(_ seconds: Double) -> Int64? {
        let ns = seconds * 1e9
        guard ns >= 0, ns < 9.223_372_036_854_775_807e18 else { return nil }
        return Int64(ns)
    }

    /// `seconds` in nanoseconds, or `nil` if it is negative or does not fit 64 bits.
    public static func fromSeconds(_ seconds: Int64) -> Int64? {
        let (ns, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow || ns < 0 ? nil : ns
    }

    /// Parses a duration such as `1s`, `250ms`, `2h`, `1m30s`, `500us` or `100ns`; a bare number is seconds.
    ///
    /// Decimal numbers are read exactly, in integers (`7902293ns`, `7.902293s` and `0.1s` are those nanoseconds,
    /// not a binary fraction's neighbours); digits below a nanosecond are dropped. A bare number in another notation
    /// (`1e3`) is read as a `Double` of seconds.
    /// - Returns: the duration in nanoseconds, or `nil` for text that is no duration, a negative one, or one
    ///   of 2^63 ns (about 292 years) or more.
    public static func parse(_ text: String) -> Int64? {
        guard !text.isEmpty else { return nil }
        if text.utf8.allSatisfy({ $0 == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            return decimal(Substring(text), scale: 1_000_000_000)
        }
        if let seconds = Double(text) { return seconds.isFinite ? fromSeconds(seconds) : nil }
        var total: Int64 = 0
        var rest = Substring(text)
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            rest = rest.dropFirst(number.count)
            let unit = rest.prefix { $0.isLetter || $0 == "µ" }
            rest = rest.dropFirst(unit.count)
            let scale: Int64
            switch unit {
            case "ns": scale = 1
            case "us", "µs": scale = 1000
            case "ms": scale = 1_000_000
            case "s": scale = 1_000_000_000
            case "m", "min": scale = 60_000_000_000
            case "h": scale = 3_600_000_000_000
            default: return nil
            }
            guard let part = decimal(number, scale: scale) else { return nil }
            let (sum, overflow) = total.addingReportingOverflow(part)
            guard !overflow else { return nil }
            total = sum
        }
        return total
    }

    /// The decimal number `text` (ASCII digits, at most one `.`, a digit on one side of it at least) times `scale`
    /// nanoseconds, exactly, rounded down to a whole nanosecond; `nil` if it is not such a number or the product
    /// does not fit an `Int64`.
    private static func decimal(_ text: Substring, scale: Int64) -> Int64? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.contains(where: { !$0.isEmpty }),
            parts.allSatisfy({ $0.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } })
        else { return nil }
        var whole: Int64 = 0
        for digit in parts[0].utf8 {
            let (tens, overflow) = whole.multipliedReportingOverflow(by: 10)
            let (sum, carry) = tens.addingReportingOverflow(Int64(digit - UInt8(ascii: "0")))
            guard !overflow, !carry else { return nil }
            whole = sum
        }
        let (scaled, overflow) = whole.multipliedReportingOverflow(by: scale)
        guard !overflow else { return nil }
        guard parts.count == 2 else { return scaled }
        // Up to 18 fraction digits (10^18 < 2^63); a later digit is worth less than 4·10^-6 ns even in hours.
        var fraction: UInt64 = 0
        var denominator: UInt64 = 1
        for digit in parts[1].utf8.prefix(18) {
            fraction = fraction * 10 + UInt64(digit - UInt8(ascii: "0"))
            denominator *= 10
        }
        // fraction / denominator < 1, so the quotient is below `scale` and fits.
        let product = fraction.multipliedFullWidth(by: UInt64(scale))
        let part = Int64(denominator.dividingFullWidth(product).quotient)
        let (sum, carry) = scaled.addingReportingOverflow(part)
        return carry ? nil : sum
    }
}
