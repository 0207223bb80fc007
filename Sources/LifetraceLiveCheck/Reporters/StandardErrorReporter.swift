import Foundation
public import LifetraceAnalysis

/// Writes each finding to standard error, one line as ``Finding/liveCheckLine`` spells it, on every platform:
/// Xcode's console, a terminal, a test's log.
public struct StandardErrorReporter: LiveCheckReporter {
    /// Put before each line (a time, the app's name), made when the line is written; `nil`: nothing.
    public let prefix: (@Sendable () -> String)?

    /// Writes each finding to standard error, after `prefix` if one is given.
    public init(prefix: (@Sendable () -> String)? = nil) {
        self.prefix = prefix
    }

    public func report(_ finding: Finding) {
        write((prefix?() ?? "") + "lifetrace live check: " + finding.liveCheckLine)
    }

    public func eventsDropped(total: Int) {
        write(
            (prefix?() ?? "")
                + "lifetrace live check: \(total) events dropped so far, the check's hand-off full: findings may be missed"
        )
    }

    private func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
