import Foundation
public import Testing

/// The two tiers of the test suite.
///
/// `swift test` runs the unit tier: fast, in process, no program but the package's own binaries. Tests that run
/// outside tools (Spark, DuckDB, Chromium, Python scripts, Perfetto's trace processor, GNU time), send signals
/// to real processes at random moments, or walk millions of random events form the integration tier, which
/// runs only when the environment sets `LIFETRACE_INTEGRATION=1`, as `scripts/test` does.
public enum TestTier {
    /// The environment variable that enables the integration tier.
    public static let environmentVariable = "LIFETRACE_INTEGRATION"

    /// Whether this run includes the integration tier.
    public static var integrationEnabled: Bool {
        ProcessInfo.processInfo.environment[environmentVariable] == "1"
    }
}

extension Trait where Self == ConditionTrait {
    /// Puts a test or suite in the integration tier: it runs only with `LIFETRACE_INTEGRATION=1`.
    public static var integration: Self {
        .enabled(if: TestTier.integrationEnabled, "integration tier: runs with LIFETRACE_INTEGRATION=1 (scripts/test)")
    }
}
