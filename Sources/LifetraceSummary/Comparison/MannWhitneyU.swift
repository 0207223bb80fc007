// `erfc`: the C library's, which Foundation brings on every platform.
import Foundation

/// The Mann–Whitney U test (Wilcoxon rank-sum) of whether one sample tends to be larger than another: it
/// compares ranks, not values, so it suits small samples of skewed durations, where a mean is pulled by one
/// slow run and a t-test's normality does not hold.
///
/// The p-value is one-sided, from the normal approximation with the correction for ties and for continuity
/// (accurate from about five observations a side; ``BuildComparison`` asks for ``ComparisonThresholds/minimumCount``).
package struct MannWhitneyU: Sendable, Hashable {
    /// U of the second sample: the number of pairs in which it is the larger (ties count half).
    package var u: Double
    /// The probability of a U at least this large were both samples from one distribution.
    package var pGreater: Double
    /// The probability of a U at most this small were both samples from one distribution.
    package var pLess: Double

    /// Tests whether `second` tends to be larger (``pGreater``) or smaller (``pLess``) than `first`.
    package init(_ first: [Int64], _ second: [Int64]) {
        let n1 = Double(first.count)
        let n2 = Double(second.count)
        // Mid-ranks over the pooled sample, and the tie correction's sum of t³ - t.
        let pooled = (first.map { ($0, false) } + second.map { ($0, true) }).sorted { $0.0 < $1.0 }
        var rankSum = 0.0
        var ties = 0.0
        var start = 0
        while start < pooled.count {
            var end = start
            while end + 1 < pooled.count, pooled[end + 1].0 == pooled[start].0 { end += 1 }
            let rank = Double(start + end + 2) / 2
            for index in start...end where pooled[index].1 { rankSum += rank }
            let t = Double(end - start + 1)
            ties += t * t * t - t
            start = end + 1
        }
        u = rankSum - n2 * (n2 + 1) / 2
        let n = n1 + n2
        let mean = n1 * n2 / 2
        let variance = n1 * n2 / 12 * ((n + 1) - (n > 1 ? ties / (n * (n - 1)) : 0))
        guard n1 > 0, n2 > 0, variance > 0 else {
            (pGreater, pLess) = (1, 1)
            return
        }
        let deviation = variance.squareRoot()
        pGreater = Self.upperTail((u - mean - 0.5) / deviation)
        pLess = Self.upperTail((mean - u - 0.5) / deviation)
    }

    /// P(Z ≥ z) for a standard normal Z.
    static func upperTail(_ z: Double) -> Double {
        0.5 * erfc(z / 2.0.squareRoot())
    }
}
