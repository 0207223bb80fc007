#if canImport(Darwin)
import Foundation
#endif

/// Keeping traces out of the user's backups.
enum BackupExclusion {
    /// Marks the file at `path` excluded from backups (`URLResourceValues.isExcludedFromBackup`) on Apple
    /// platforms: a trace is diagnostics the app can record again, not the user's data, and up to 20 traces and
    /// 64 MiB (``TraceRetention``'s defaults) in Application Support would go into every iCloud backup and device
    /// transfer otherwise (Apple, "Optimizing your app's data for iCloud backup"). The traces stay where they
    /// are, and are not purged as Caches would be: the last session's trace must survive until the next launch
    /// reads it. Elsewhere it does nothing. A failure is not an error: the trace is still written.
    static func exclude(_ path: String) {
        #if canImport(Darwin)
        var url = URL(fileURLWithPath: path)
        var values = URLResourceValues()
        values.isExcludedFromBackup = true
        try? url.setResourceValues(values)
        #endif
    }
}
