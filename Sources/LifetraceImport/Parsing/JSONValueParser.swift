import LifetraceCore
import LifetraceFormat

/// Parses one JSON object of a log capture with lifetrace's strict JSON reader.
enum JSONValueParser {
    static func parse(_ text: String) throws -> JSONValue {
        try JSONValue(parsing: text, file: "-")
    }
}
