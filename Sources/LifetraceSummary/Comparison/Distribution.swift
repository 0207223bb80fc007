/// A sample's size and percentiles, computed as Spark SQL's `percentile` computes them, to the last bit, so that
/// the Spark job over the same summary rows prints the same numbers: the value at position `(n - 1) * p` of the
/// sorted sample, interpolated linearly between its neighbours as `lower + fraction * (higher - lower)`.
public struct Distribution: Sendable, Hashable {
    /// The number of observations.
    public var count: Int
    /// The median.
    public var p50: Double?
    /// The 90th percentile.
    public var p90: Double?
    /// The 99th percentile.
    public var p99: Double?

    /// The distribution of `values`.
    public init(_ values: [Int64]) {
        let sorted = values.sorted()
        count = sorted.count
        p50 = Self.percentile(sorted, 0.5)
        p90 = Self.percentile(sorted, 0.9)
        p99 = Self.percentile(sorted, 0.99)
    }

    /// The `p` percentile of `sorted` (ascending), `nil` for no values.
    public static func percentile(_ sorted: [Int64], _ p: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let position = Double(sorted.count - 1) * p
        let lower = position.rounded(.down)
        let higher = position.rounded(.up)
        let lowerValue = Double(sorted[Int(lower)])
        if lower == higher { return lowerValue }
        let higherValue = Double(sorted[Int(higher)])
        if lowerValue == higherValue { return lowerValue }
        return lowerValue + (position - lower) * (higherValue - lowerValue)
    }
}
