/// The exit codes every `lifetrace` command documents.
enum ExitStatus {
    /// Success: no findings.
    static let success: Int32 = 0
    /// Findings: lifecycle errors (and warnings with `--strict`).
    static let findings: Int32 = 1
    /// Bad input or usage.
    static let badInput: Int32 = 2
}
