/// A name that is a string in files and a type in code (``Budget``): written as a literal, printed as written.
/// (``RuleID`` is not one: code names rules by its constants only.)
public protocol StringIdentifier: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
where RawValue == String {
    /// The name as written.
    init(rawValue: String)
}

extension StringIdentifier {
    /// A name written as a literal.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// The name as written.
    public var description: String { rawValue }
}
