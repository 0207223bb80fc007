public import LifetraceCore

extension TraceHeader {
    /// The header as a JSON object: `lifetrace` first, then the known members, then the extension members.
    public var jsonValue: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("lifetrace", .int(majorVersion))]
        if let clock { members.append(("clock", .string(clock.rawValue))) }
        if let startUnixNanoseconds { members.append(("start_unix_ns", .int(startUnixNanoseconds))) }
        if let app { members.append(("app", .string(app))) }
        if let sceneManifest { members.append(("scene_manifest", .bool(sceneManifest))) }
        members.append(contentsOf: extra)
        return .object(members)
    }

    /// Reads a header from its JSON object.
    ///
    /// - Throws: a message naming the member that has the wrong type or value.
    init(json: JSONValue) throws(DecodeFailure) {
        guard case let .object(members) = json else {
            throw DecodeFailure(offset: 0, message: "header is not an object")
        }
        guard let version = json["lifetrace"] else {
            throw DecodeFailure(offset: 0, message: "header lacks \"lifetrace\"")
        }
        guard case let .int(major) = version, major >= 1 else {
            throw DecodeFailure(offset: 0, message: "\"lifetrace\" must be a version number >= 1")
        }
        self.init(majorVersion: major)
        for (key, value) in members {
            switch key {
            case "lifetrace": break
            case "clock":
                guard let name = value.stringValue, let clock = TraceClock(rawValue: name) else {
                    throw DecodeFailure(offset: 0, message: "\"clock\" must be continuous, monotonic or wall")
                }
                self.clock = clock
            case "start_unix_ns":
                guard let ns = value.intValue else {
                    throw DecodeFailure(offset: 0, message: "\"start_unix_ns\" must be an integer")
                }
                startUnixNanoseconds = ns
            case "app":
                guard let app = value.stringValue else {
                    throw DecodeFailure(offset: 0, message: "\"app\" must be a string")
                }
                self.app = app
            case "scene_manifest":
                guard let flag = value.boolValue else {
                    throw DecodeFailure(offset: 0, message: "\"scene_manifest\" must be true or false")
                }
                sceneManifest = flag
            default:
                // Every member the schema types, as the ones above: one line naming the member.
                if let problem = Self.problem(member: key, value: value) {
                    throw DecodeFailure(offset: 0, message: problem)
                }
                extra.append((key, value))
            }
        }
    }
}
