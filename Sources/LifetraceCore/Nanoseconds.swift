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
    /// - Returns: the duration in nanoseconds, or `nil` for text that is no duration, a negative one, or one
    ///   of 2^63 ns (about 292 years) or more.
    public static func parse(_ text: String) -> Int64? {
        if let seconds = Double(text) { return seconds.isFinite ? fromSeconds(seconds) : nil }
        var total: Int64 = 0
        var rest = Substring(text)
        guard !rest.isEmpty else { return nil }
        while !rest.isEmpty {
            let number = rest.prefix { $0.isNumber || $0 == "." }
            guard !number.isEmpty, let value = Double(number) else { return nil }
            rest = rest.dropFirst(number.count)
            let unit = rest.prefix { $0.isLetter || $0 == "µ" }
            rest = rest.dropFirst(unit.count)
            let scale: Double
            switch unit {
            case "ns": scale = 1
            case "us", "µs": scale = 1e3
            case "ms": scale = 1e6
            case "s": scale = 1e9
            case "m", "min": scale = 60e9
            case "h": scale = 3600e9
            default: return nil
            }
            guard let part = fromSeconds(value * scale / 1e9) else { return nil }
            let (sum, overflow) = total.addingReportingOverflow(part)
            guard !overflow else { return nil }
            total = sum
        }
        return total
    }
}
