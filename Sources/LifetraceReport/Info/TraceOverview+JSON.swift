package import LifetraceCore
import LifetraceFormat

extension TraceOverview {
    /// The overview as `lifetrace info --json` prints it: one object, members in a fixed order; a binary trace
    /// adds its frames, index and format version, a JSON Lines trace its line count.
    package var jsonValue: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("file", .string(path)),
            ("format", .string(format.rawValue)),
            ("header", header?.jsonValue ?? .null),
            ("events", .int(Int64(statistics.events))),
            ("first_t", statistics.firstT.map { .int($0) } ?? .null),
            ("last_t", statistics.lastT.map { .int($0) } ?? .null),
            ("bytes", .int(Int64(statistics.bytes))),
            (
                "kinds",
                .object(kinds.sorted { $0.key.rawValue < $1.key.rawValue }.map { ($0.key.name, .int(Int64($0.value))) })
            ),
            ("scenes", .int(Int64(sceneCount))),
            ("truncated", .bool(statistics.truncated)),
        ]
        if format == .binary {
            members.append(("data_frames", .int(Int64(statistics.dataFrames))))
            members.append(("index_present", .bool(statistics.indexPresent)))
            members.append(("index_consistent", .bool(statistics.indexConsistent)))
            if let version = statistics.formatVersion {
                members.append(("format_version", .string("\(version.major).\(version.minor)")))
            }
        } else {
            members.append(("lines", .int(Int64(statistics.lines))))
        }
        members.append(("warnings", .array(warnings.map { .string($0.description) })))
        return .object(members)
    }
}
