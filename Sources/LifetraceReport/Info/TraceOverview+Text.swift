import Foundation
import LifetraceCore
import LifetraceFormat

extension TraceOverview {
    /// The overview as `lifetrace info` prints it: the path, then one indented `name: value` line per aspect,
    /// each line ending in a newline. The path, the header's members and the kinds' names come from the input,
    /// so every line is escaped for a terminal (``PrintableText/escaped(_:)``).
    package var text: String {
        var text = ""
        func line(_ line: String) { text += PrintableText.escaped(line) + "\n" }
        line(path)
        switch format {
        case .binary:
            let version = statistics.formatVersion.map { "\($0.major).\($0.minor)" } ?? "?"
            line("  format:      .lifetrace \(version)")
        case .jsonLines:
            line("  format:      JSON Lines (\(Plural.count(statistics.lines, "line")))")
        }
        if let header {
            line("  header:      " + Self.headerMembers(header))
        } else {
            line("  header:      none")
        }
        line(
            "  events:      \(statistics.events)" + (sceneCount == 0 ? "" : " in \(Plural.count(sceneCount, "scene"))"))
        if let first = statistics.firstT, let last = statistics.lastT {
            line(
                "  time span:   \(Nanoseconds.seconds(first)) to \(Nanoseconds.seconds(last)) "
                    + "(\(Nanoseconds.short(last - first)))")
        }
        let top = kinds.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key.rawValue < $1.key.rawValue) }
        if !top.isEmpty {
            line(
                "  kinds:       " + top.prefix(6).map { "\($0.key.name) \($0.value)" }.joined(separator: ", ")
                    + (top.count > 6 ? ", ... (\(top.count) kinds)" : ""))
        }
        if format == .binary {
            let index =
                statistics.indexPresent
                ? (statistics.indexConsistent ? "index present" : "index present but inconsistent")
                : "no index (not closed cleanly)"
            line("  frames:      \(statistics.dataFrames) data, \(index)")
        }
        let perEvent =
            statistics.events > 0
            ? String(format: " (%.2f bytes/event)", Double(statistics.bytes) / Double(statistics.events)) : ""
        line("  bytes:       \(statistics.bytes)\(perEvent)")
        line("  damage:      \(damage)")
        return text
    }

    /// The header's members as `key=value` words: app, clock, start (ISO 8601), scene manifest, then the rest
    /// in the header's order.
    private static func headerMembers(_ header: TraceHeader) -> String {
        var parts: [String] = []
        if let app = header.app { parts.append("app=\(app)") }
        if let clock = header.clock { parts.append("clock=\(clock.rawValue)") }
        if let start = header.startUnixNanoseconds {
            let date = Date(timeIntervalSince1970: Double(start) / 1e9)
            parts.append("start=\(date.formatted(.iso8601))")
        }
        if let manifest = header.sceneManifest { parts.append("scene_manifest=\(manifest)") }
        for (key, value) in header.extra {
            parts.append("\(key)=\(value.stringValue ?? value.jsonText)")
        }
        return parts.isEmpty ? "(version only)" : parts.joined(separator: " ")
    }
}
