/// A rule's stable id: `LT001`... for the catalogue's rules, any string a model declares for its own.
///
/// Every rule of the catalogue has a constant here (``catalogued`` lists them), generated with the rule from its
/// one declaration in `Schemas/rules.json` (RuleCatalog+Generated.swift): the analyzer names rules by these
/// constants, so a misspelt id does not compile. An id read from a file or the command line is made with
/// ``init(rawValue:)``; a model's JSON names its rules by their ids, checked when the model loads.
public struct RuleID: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The id as written: `LT003`.
    public let rawValue: String

    /// The id `rawValue`, as a file or the command line spells it.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The id as written.
    public var description: String { rawValue }

    /// Ids sort as written: `LT001` before `LT010`.
    public static func < (lhs: RuleID, rhs: RuleID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
