public import LifetraceAnalysis
public import LifetraceFormat

extension ConfigurationFile {
    /// `compare`'s thresholds: the file's `compare` member (``ComparisonThresholds/load(path:)``).
    public func comparisonThresholds() throws(TraceError) -> ComparisonThresholds {
        try ComparisonThresholds(json, file: path)
    }
}
