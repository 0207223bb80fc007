import LifetraceAnalysis
import LifetraceChecking
import LifetraceCore
public import LifetraceFormat

/// When `compare` calls a difference a regression; `lifetrace.json`'s `compare` member sets them:
/// `{"compare": {"alpha": 0.01, "min_effect": 0.10, "min_count": 5, "min_exit_increase": 0.05}}`.
public struct ComparisonThresholds: Sendable, Hashable {
    /// The significance level of the one-sided test (Mann–Whitney U for durations, two proportions for exits).
    public var alpha = 0.01
    /// The smallest relative change of the median that counts (0.10: 10 % slower), however significant: with
    /// many runs a test finds differences too small to matter.
    public var minimumEffect = 0.10
    /// The fewest observations a side needs for a verdict.
    public var minimumCount = 5
    /// The smallest rise in the share of processes ending one bad way that counts (0.05: 5 points).
    public var minimumExitIncrease = 0.05

    /// The documented defaults.
    public init() {}

    /// The thresholds of the `compare` member of the configuration file at `path`, the defaults for those it
    /// does not set.
    public static func load(path: String) throws(TraceError) -> ComparisonThresholds {
        try ConfigurationFile(path: path).comparisonThresholds()
    }

    /// The thresholds of the `compare` member of `json` (the file `path`'s).
    init(_ json: JSONValue, file path: String) throws(TraceError) {
        self.init()
        guard case let .object(members)? = json["compare"] else { return }
        for (key, value) in members {
            let number: Double? =
                switch value {
                case let .int(int): Double(int)
                case let .double(double): double
                default: nil
                }
            func fail(_ range: String) -> TraceError {
                TraceError(.malformed, file: path, at: .file, "compare.\(key) must be a number \(range)")
            }
            switch key {
            case "alpha":
                guard let number, number > 0, number < 1 else { throw fail("between 0 and 1") }
                alpha = number
            case "min_effect":
                guard let number, number >= 0, number <= 100 else { throw fail("from 0 to 100") }
                minimumEffect = number
            case "min_count":
                guard let number, number >= 2, number <= 1_000_000, number == number.rounded() else {
                    throw fail("(a whole number from 2)")
                }
                minimumCount = Int(number)
            case "min_exit_increase":
                guard let number, number >= 0, number <= 1 else { throw fail("from 0 to 1") }
                minimumExitIncrease = number
            default:
                throw TraceError(.malformed, file: path, at: .file, "unknown compare setting \"\(key)\"")
            }
        }
    }
}
