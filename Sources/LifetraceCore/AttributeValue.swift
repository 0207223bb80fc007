/// The value of an event attribute: a string, a number or a bool.
public enum AttributeValue: Hashable, Sendable {
    /// A string.
    case string(String)
    /// An integral number.
    case int(Int64)
    /// A number with a fraction or an exponent. Always finite.
    case double(Double)
    /// A bool.
    case bool(Bool)
}

/// One `key: value` pair of an event's `attrs` object; attributes keep the order they were written in.
public struct Attribute: Hashable, Sendable {
    /// The attribute's key.
    public var key: String
    /// The attribute's value.
    public var value: AttributeValue

    /// Creates an attribute.
    public init(_ key: String, _ value: AttributeValue) {
        self.key = key
        self.value = value
    }
}
