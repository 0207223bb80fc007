package import LifetraceChecking
package import LifetraceFormat

extension ConfigurationFile {
    /// `compare`'s thresholds: the file's `compare` member (``ComparisonThresholds/load(path:)``).
    package func comparisonThresholds() throws(TraceError) -> ComparisonThresholds {
        try ComparisonThresholds(json, file: path)
    }
}
