/// JSON values written as literals, as metadata is: `["build": "417", "retries": 3, "beta": true]`.
extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
    /// A string.
    public init(stringLiteral value: String) {
        self = .string(value)
    }

    /// An integer.
    public init(integerLiteral value: Int64) {
        self = .int(value)
    }

    /// `true` or `false`.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}
