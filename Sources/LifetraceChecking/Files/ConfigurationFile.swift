import Foundation
package import LifetraceAnalysis
package import LifetraceCore
package import LifetraceFormat

/// A `lifetrace.json`, read and parsed once: the analysis configuration for each trace's header (budgets and
/// rules, by style and scene) and, through `LifetraceSummary`, `compare`'s thresholds. Commands that read many traces read it once.
package struct ConfigurationFile: Sendable {
    /// The file's path, for errors.
    package let path: String
    /// The file's JSON, for the settings other modules read (`compare`'s thresholds).
    package let json: JSONValue

    /// Reads and parses the file at `path`.
    package init(path: String) throws(TraceError) {
        let text = try SettingsFile.text(of: path, "a configuration file", limit: InputFileSize.configuration)
        self.path = path
        json = try JSONValue(parsing: text, file: path)
    }

    /// The analysis configuration for a trace with `header` (``AnalysisConfiguration/load(path:for:)``).
    package func configuration(for header: TraceHeader?) throws(TraceError) -> AnalysisConfiguration {
        try AnalysisConfiguration(json, file: path, for: header)
    }
}
