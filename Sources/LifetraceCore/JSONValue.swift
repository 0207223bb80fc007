/// A JSON value, with object members kept in the order they were written.
///
/// Used for header metadata, whose extension fields (a simulator's scenario and faults, an importer's
/// source) lifetrace carries through unchanged.
public indirect enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integral number.
    case int(Int64)
    /// A number with a fraction or an exponent.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; members keep their order.
    case object([(key: String, value: JSONValue)])

    /// Compares two values; objects compare member by member, in order.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.int(a), .int(b)): a == b
        case let (.double(a), .double(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// Hashes the value consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case let .bool(b): hasher.combine(b)
        case let .int(i): hasher.combine(i)
        case let .double(d): hasher.combine(d)
        case let .string(s): hasher.combine(s)
        case let .array(a): hasher.combine(a)
        case let .object(members):
            hasher.combine(members.count)
            for member in members {
                hasher.combine(member.key)
                hasher.combine(member.value)
            }
        }
    }

    /// The value of an object's member, or `nil`.
    public subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        if case let .string(s) = self { return s }
        return nil
    }

    /// The integer, if this is an integral number.
    public var intValue: Int64? {
        if case let .int(i) = self { return i }
        return nil
    }

    /// The bool, if this is a bool.
    public var boolValue: Bool? {
        if case let .bool(b) = self { return b }
        return nil
    }
}
