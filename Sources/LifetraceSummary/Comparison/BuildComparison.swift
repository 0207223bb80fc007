/// Two sets of runs compared metric by metric: the distributions side by side and a verdict.
///
/// A duration regresses when the new runs tend to be slower by the one-sided Mann–Whitney U test and their median
/// is at least ``ComparisonThresholds/minimumEffect`` above the base's. An exit kind regresses when the share of
/// processes ending that way rises by at least ``ComparisonThresholds/minimumExitIncrease``, significant by the
/// one-sided two-proportion z-test. Many metrics are tested at once, so the gating ones are held to Holm's
/// step-down correction: the chance that any of them is called a regression when nothing changed stays at most
/// ``ComparisonThresholds/alpha``.
public struct BuildComparison: Sendable {
    /// What a metric's comparison concluded.
    public enum Verdict: String, Sendable {
        /// Worse beyond the thresholds; a regression of a gating metric fails `compare`.
        case regression
        /// Better beyond the thresholds.
        case improvement
        /// Within the thresholds.
        case unchanged
        /// Too few observations on a side for a verdict.
        case insufficient = "too-few"
    }

    /// One metric, compared.
    public struct Row: Sendable {
        /// The metric.
        public var metric: ComparedMetric
        /// The base runs' distribution (for exits: the count of processes ending that way).
        public var base: Distribution
        /// The new runs' distribution.
        public var new: Distribution
        /// The relative change of the median (durations) or the change of the share in points (exits).
        public var change: Double?
        /// The one-sided p-value of the direction the change went.
        public var p: Double?
        /// The verdict.
        public var verdict: Verdict
        /// Whether its regression fails `compare` (``ComparedMetric/gates``).
        public var gates: Bool { metric.gates }
        /// For exits: the share of processes that ended this way, base and new.
        public var shares: (base: Double, new: Double)?
        /// The one-sided p-value of getting worse, whichever way the change went.
        var worsening: Double?
    }

    /// The metrics either side has, in ``ComparedMetric`` order.
    public var rows: [Row]
    /// The thresholds applied.
    public var thresholds: ComparisonThresholds
    /// The traces read on each side, and those that could not be.
    public var traces: (base: Int, new: Int)
    /// Traces that gave an error row, on each side.
    public var unreadable: (base: Int, new: Int)
    /// Traces read only to their last whole frame (a writer killed), on each side.
    public var truncated: (base: Int, new: Int)

    /// Whether a gating metric regressed.
    public var hasRegression: Bool { rows.contains { $0.gates && $0.verdict == .regression } }

    /// Compares `new` with `base`.
    public init(base: SummaryObservations, new: SummaryObservations, thresholds: ComparisonThresholds = .init()) {
        self.thresholds = thresholds
        traces = (base.traces, new.traces)
        unreadable = (base.unreadable, new.unreadable)
        truncated = (base.truncated, new.truncated)
        var rows: [Row] = []
        for metric in Set(base.values.keys).union(new.values.keys).sorted() {
            rows.append(Self.durations(metric, base.values[metric] ?? [], new.values[metric] ?? [], thresholds))
        }
        for end in Set(base.exits.keys).union(new.exits.keys).sorted() {
            rows.append(
                Self.exits(
                    end, base: (base.exits[end] ?? 0, base.processes),
                    new: (new.exits[end] ?? 0, new.processes), thresholds))
        }
        Self.holdToHolm(&rows, alpha: thresholds.alpha)
        self.rows = rows
    }

    /// Keeps a gating metric's regression only if its p-value passes Holm's step-down test over every gating
    /// metric with a verdict: the smallest p against alpha / m, the next against alpha / (m - 1), and so on,
    /// stopping at the first that fails.
    private static func holdToHolm(_ rows: inout [Row], alpha: Double) {
        let tested = rows.indices.filter {
            rows[$0].gates && rows[$0].verdict != .insufficient && rows[$0].worsening != nil
        }
        .sorted { rows[$0].worsening! < rows[$1].worsening! }
        var passing = true
        for (rank, index) in tested.enumerated() {
            passing = passing && rows[index].worsening! < alpha / Double(tested.count - rank)
            if !passing, rows[index].verdict == .regression { rows[index].verdict = .unchanged }
        }
    }

    private static func durations(
        _ metric: ComparedMetric, _ base: [Int64], _ new: [Int64],
        _ thresholds: ComparisonThresholds
    ) -> Row {
        let (baseDistribution, newDistribution) = (Distribution(base), Distribution(new))
        var row = Row(metric: metric, base: baseDistribution, new: newDistribution, verdict: .insufficient)
        if let before = baseDistribution.p50, let after = newDistribution.p50, before > 0 {
            row.change = (after - before) / before
        }
        guard base.count >= thresholds.minimumCount, new.count >= thresholds.minimumCount else { return row }
        let test = MannWhitneyU(base, new)
        let change = row.change ?? 0
        row.p = change >= 0 ? test.pGreater : test.pLess
        row.worsening = test.pGreater
        if test.pGreater < thresholds.alpha, change >= thresholds.minimumEffect {
            row.verdict = .regression
        } else if test.pLess < thresholds.alpha, change <= -thresholds.minimumEffect {
            row.verdict = .improvement
        } else {
            row.verdict = .unchanged
        }
        return row
    }

    private static func exits(
        _ end: String, base: (count: Int, of: Int), new: (count: Int, of: Int),
        _ thresholds: ComparisonThresholds
    ) -> Row {
        let metric = ComparedMetric(.exit, end)
        var row = Row(
            metric: metric, base: Distribution(count: base.count), new: Distribution(count: new.count),
            verdict: .insufficient)
        guard base.of >= thresholds.minimumCount, new.of >= thresholds.minimumCount else { return row }
        let (p1, p2) = (Double(base.count) / Double(base.of), Double(new.count) / Double(new.of))
        row.shares = (p1, p2)
        row.change = p2 - p1
        let pooled = Double(base.count + new.count) / Double(base.of + new.of)
        let deviation = (pooled * (1 - pooled) * (1 / Double(base.of) + 1 / Double(new.of))).squareRoot()
        let z = deviation > 0 ? (p2 - p1) / deviation : 0
        let (pUp, pDown) = (MannWhitneyU.upperTail(z), MannWhitneyU.upperTail(-z))
        row.p = p2 >= p1 ? pUp : pDown
        row.worsening = pUp
        if pUp < thresholds.alpha, p2 - p1 >= thresholds.minimumExitIncrease {
            row.verdict = .regression
        } else if pDown < thresholds.alpha, p1 - p2 >= thresholds.minimumExitIncrease {
            row.verdict = .improvement
        } else {
            row.verdict = .unchanged
        }
        return row
    }
}

extension Distribution {
    /// A count with no percentiles: how many processes ended one way.
    init(count: Int) {
        self.count = count
    }
}
