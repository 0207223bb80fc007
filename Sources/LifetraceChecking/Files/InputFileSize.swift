/// The sizes past which the files a command reads whole — a configuration, a lifecycle model, a baseline — are
/// refused (`SettingsFile`): a file of hundreds of megabytes given by mistake must not take the memory it would.
package enum InputFileSize {
    /// The largest `lifetrace.json` (`--config`) or lifecycle model (`--models`): 8 MiB, more than 100,000
    /// scenes' budgets take (5 MB), read in under 128 MiB.
    package static let configuration = 8 << 20
    /// The largest baseline (`check --baseline`, a `check --format json` result): 32 MiB.
    package static let baseline = 32 << 20
}
