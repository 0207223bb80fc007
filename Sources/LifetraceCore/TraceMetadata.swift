/// Header members a recorder or importer adds to a trace, in the order given, written as a dictionary
/// literal: `["app_version": "2.3", "build": "417", "device": "iPhone15,4"]`. The keys lifetrace knows are
/// ``TraceHeader/Key``'s. A member the trace format types must hold its type (``TraceHeader/memberTypes``: the
/// known keys are strings, so `"build": "417"`, not `417`); a writer refuses any other
/// (``TraceHeader/problem(metadata:value:)``), since its readers would refuse the header.
public struct TraceMetadata: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// The members, in order.
    public private(set) var entries: [(key: String, value: JSONValue)]

    /// Members from a literal; a key given twice keeps its last value, at its first place.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        entries = []
        for (key, value) in elements { self[key] = value }
    }

    /// No members.
    public init() {
        entries = []
    }

    /// The value of `key`; setting `nil` removes it.
    public subscript(key: String) -> JSONValue? {
        get { JSONMembers.value(of: key, in: entries) }
        set { JSONMembers.set(key, to: newValue, in: &entries) }
    }

    /// The value of the member lifetrace knows as `key`; setting `nil` removes it.
    public subscript(key: TraceHeader.Key) -> JSONValue? {
        get { self[key.rawValue] }
        set { self[key.rawValue] = newValue }
    }

    /// Whether it has no member.
    public var isEmpty: Bool { entries.isEmpty }

    /// Equal when the same members hold the same values in the same order.
    public static func == (lhs: TraceMetadata, rhs: TraceMetadata) -> Bool {
        lhs.entries.elementsEqual(rhs.entries) { $0.key == $1.key && $0.value == $1.value }
    }

    /// Hashes the members in order.
    public func hash(into hasher: inout Hasher) {
        for entry in entries {
            hasher.combine(entry.key)
            hasher.combine(entry.value)
        }
    }
}
