public import LifetraceAnalysis
public import LifetraceCore
public import LifetraceFormat

extension AnalysisConfiguration {
    /// Reads `lifetrace.json`: `{"budgets": {"didEnterBackground": "4s", "inactiveEpisode": "30s"},
    /// "rules": {"LT054": "error", "LT053": "off"}, "styles": {"swiftui": {...}},
    /// "scenes": {"S1": {"budgets": {"inactiveEpisode": "2m"}}},
    /// "services": {"http": {"budgets": {"shutdownGrace": "10s"}}}, "serviceShutdownOrder": "any"}`.
    ///
    /// Settings for the trace's style (`header.style`, or by scene manifest) override the top-level ones.
    public static func load(path: String, for header: TraceHeader?) throws(TraceError) -> AnalysisConfiguration {
        try ConfigurationFile(path: path).configuration(for: header)
    }
}
