public import LifetraceAnalysis

/// Tests name a rule by its id as written, `"LT041"`, as a trace or a configuration file does. The libraries
/// cannot: their code names rules by ``RuleID``'s constants, so a misspelt id does not compile there.
extension RuleID: ExpressibleByStringLiteral {
    /// The rule id `value`.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }
}
