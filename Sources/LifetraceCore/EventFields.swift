/// A set of the optional fields an event carries.
///
/// The bit positions are those of `Schemas/events.json` and of the presence word of a binary record.
@frozen
public struct EventFields: OptionSet, Hashable, Sendable, BitwiseCopyable {
    /// The fields as the presence word of a binary record.
    public var rawValue: UInt16

    /// Creates a field set from a presence word.
    @inlinable
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }
}

extension EventFields {
    /// The JSON names of the fields in this set, in canonical order.
    public var names: [String] {
        Self.named.filter { contains($0.field) }.map(\.name.description)
    }

    /// The one field called `name` (``Name``), or `nil`.
    package init?(name: String) {
        guard let entry = Self.named.first(where: { $0.name.description == name }) else { return nil }
        self = entry.field
    }
}
