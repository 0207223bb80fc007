/// A sum of non-negative durations (nanoseconds) that cannot wrap: kept in 128 bits, so that 2^63 durations of
/// up to 2^63 ns each add up exactly, and their mean, which is below 2^63, comes out exact. No allocation: it
/// runs on paths that see every event.
package struct DurationSum: Sendable, Hashable {
    private var high: UInt64 = 0
    private var low: UInt64 = 0
    /// How many durations were added.
    package private(set) var count: Int64 = 0

    /// An empty sum.
    package init() {}

    /// Adds `duration`, which must not be negative (a negative one is added as 0: the callers refuse it first).
    package mutating func add(_ duration: Int64) {
        let (sum, carry) = low.addingReportingOverflow(UInt64(max(0, duration)))
        low = sum
        if carry { high &+= 1 }
        count &+= 1
    }

    /// The sum, or `Int64.max` where it is past what 64 bits hold.
    package var saturated: Int64 {
        high == 0 && low <= UInt64(Int64.max) ? Int64(low) : .max
    }

    /// The mean, rounded down (integer division, as Spark SQL's `div` does); 0 for no duration.
    package var mean: Int64 {
        guard count > 0 else { return 0 }
        // Each duration is below 2^63, so the mean is, and the quotient fits: `high` is below `count`.
        let (quotient, _) = UInt64(count).dividingFullWidth((high: high, low: low))
        return Int64(quotient)
    }
}
