import LifetraceCore

/// Every rule lifetrace checks, by id. `lifetrace rules` lists them; `lifetrace explain ID` prints one.
///
/// Each rule is declared once, in `Schemas/rules.json`: its id, severity and texts, which checker reports it, on
/// which events, and where it applies. ``declared`` is generated from it (RuleCatalog+Generated.swift), and so
/// are ``RuleID``'s constants; the analyzer's gate and dispatch of the rules checked in code
/// (``CodeRuleTriggers``), `rules`, `explain` and docs/rules.md derive from these values. The built-in models name
/// these rules by id.
public enum RuleCatalog {
    /// The rules in id order.
    public static var all: [Rule] { declared }

    /// The rule with `id`, or `nil`.
    public static func rule(_ id: RuleID) -> Rule? {
        byID[RuleID(rawValue: id.rawValue.uppercased())]
    }

    private static let byID: [RuleID: Rule] = Dictionary(uniqueKeysWithValues: declared.map { ($0.id, $0) })
}
