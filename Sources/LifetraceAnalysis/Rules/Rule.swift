/// How serious a finding is.
public enum Severity: String, Sendable, Comparable {
    /// Something the system punishes (an ordering the app cannot rely on, a budget it enforces by killing
    /// the app, a leaked task): `lifetrace check` exits 1.
    case error
    /// A soft budget or a smell: `lifetrace check --strict` exits 1.
    case warning

    /// Errors sort first.
    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        lhs == .error && rhs == .warning
    }
}

/// One rule of the catalogue: a stable id, what it checks, where the rule comes from and how to fix a finding.
public struct Rule: Sendable, Hashable {
    /// The stable id, `LT001`...
    public let id: String
    /// The default severity.
    public let severity: Severity
    /// One line.
    public let title: String
    /// The documentation the rule comes from: Apple's page by title and address, with the passage.
    public let source: String
    /// What goes wrong, for an app developer.
    public let explanation: String
    /// What to do about it.
    public let fix: String
}
