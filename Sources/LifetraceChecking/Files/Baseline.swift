import Foundation
import LifetraceCore
package import LifetraceFormat

/// Known findings a team accepts while adopting lifetrace: a previous `check --format json` result.
package enum Baseline {
    /// The key of a finding in a baseline: its file's name and its baseline key.
    package static func key(file: String, _ baselineKey: String) -> String {
        (file as NSString).lastPathComponent + " " + baselineKey
    }

    /// The accepted findings of the baseline file at `path`.
    package static func load(_ path: String) throws(TraceError) -> Set<String> {
        let text = try SettingsFile.text(of: path, "a baseline", limit: InputFileSize.baseline)
        let json = try JSONValue(parsing: text, file: path)
        guard case let .array(results)? = json["results"] else {
            throw TraceError(.malformed, file: path, at: .file, "not a `lifetrace check --format json` result")
        }
        var keys = Set<String>()
        for result in results {
            guard let file = result["file"]?.stringValue, case let .array(findings)? = result["findings"] else {
                continue
            }
            for finding in findings {
                if let baselineKey = finding["baseline_key"]?.stringValue { keys.insert(key(file: file, baselineKey)) }
            }
        }
        return keys
    }
}
