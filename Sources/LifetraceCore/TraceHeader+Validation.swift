/// What each header member the schema types must hold, checked the same way by every reader: a member that
/// does not is refused with one line naming it, as `"clock": "sundial"` is.
extension TraceHeader {
    /// What a header member must hold (`Schemas/trace-event.schema.json`, `header`).
    public enum MemberType: Sendable, Equatable {
        /// A string.
        case string
        /// `true` or `false`.
        case boolean
        /// An integer, at least `minimum` when there is one.
        case integer(minimum: Int64?)
        /// One of these strings.
        case oneOf([String])
        /// An array of strings.
        case strings
    }

    /// Every member the schema types, with what it must hold: the header's own members and every ``Key``'s
    /// ``Key/memberType``. Members it does not type are kept as they are. A test reads the schema and fails on a
    /// member it types that is missing here, or typed otherwise.
    public static let memberTypes: [String: MemberType] = {
        var types: [String: MemberType] = [
            "lifetrace": .integer(minimum: 1),
            "clock": .oneOf(TraceClock.allCases.map(\.rawValue)),
            "start_unix_ns": .integer(minimum: nil),
            "app": .string,
            "scene_manifest": .boolean,
        ]
        for key in Key.allCases { types[key.rawValue] = key.memberType }
        return types
    }()

    /// The members a header states in its own properties (``majorVersion``, ``clock``,
    /// ``startUnixNanoseconds``, ``app``, ``sceneManifest``): an extension member of the same name would be
    /// written twice.
    public static let ownMembers: Set<String> = ["lifetrace", "clock", "start_unix_ns", "app", "scene_manifest"]

    /// Why a writer may not add `key` with `value` to a header's extension members (a recorder's metadata,
    /// `--meta`), in one line that names the member: one of the header's ``ownMembers``, or a value its readers
    /// refuse (``problem(member:value:)``); `nil` when it may. A header written with such a member could not be
    /// read back.
    public static func problem(metadata key: String, value: JSONValue) -> String? {
        if ownMembers.contains(key) { return "\"\(key)\" is not metadata: the header states it itself" }
        return problem(member: key, value: value)
    }

    /// Why `value` cannot be the header member `key`, in one line that names the member; `nil` when it can, or
    /// when the schema does not type `key`.
    public static func problem(member key: String, value: JSONValue) -> String? {
        guard let type = memberTypes[key] else { return nil }
        switch type {
        case .string:
            return value.stringValue == nil ? "\"\(key)\" must be a string" : nil
        case .boolean:
            return value.boolValue == nil ? "\"\(key)\" must be true or false" : nil
        case let .integer(minimum):
            guard let number = value.intValue, number >= minimum ?? .min else {
                return minimum.map { "\"\(key)\" must be an integer >= \($0)" } ?? "\"\(key)\" must be an integer"
            }
            return nil
        case let .oneOf(names):
            guard let name = value.stringValue, names.contains(name) else {
                let list =
                    names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names.last! : names.joined()
                return "\"\(key)\" must be \(list)"
            }
            return nil
        case .strings:
            guard case let .array(items) = value, items.allSatisfy({ $0.stringValue != nil }) else {
                return "\"\(key)\" must be an array of strings"
            }
            return nil
        }
    }
}

extension TraceHeader.Key {
    /// What the member must hold (`Schemas/trace-event.schema.json`, `header`): every known key has a type, so a
    /// key added without one does not compile.
    public var memberType: TraceHeader.MemberType {
        switch self {
        case .source, .scenario, .logFormat, .timeZone, .testName, .appVersion, .build, .osVersion, .device: .string
        // A style lifetrace does not know selects no per-style settings, but is kept: the schema types it a string.
        case .style: .string
        case .capture: .oneOf(TraceHeader.CaptureMethod.allCases.map(\.rawValue))
        case .lifecycle: .oneOf(TraceHeader.Lifecycle.allCases.map(\.rawValue))
        case .processStart: .integer(minimum: 0)
        case .heartbeat, .seed, .yearAssumed: .integer(minimum: nil)
        case .derived, .groundTruth, .timeZoneAssumed, .appPrints: .boolean
        case .faults: .strings
        }
    }
}
