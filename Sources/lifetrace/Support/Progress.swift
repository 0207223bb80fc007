#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A progress line on standard error for long work, shown only when standard error is a terminal.
final class Progress {
    private let total: Int?
    private let label: String
    private let enabled: Bool
    private var count = 0
    private var nextReport = 1 << 20

    init(total: Int?, label: String) {
        self.total = total
        self.label = label
        self.enabled = isatty(2) == 1 && ProcessInfo.processInfo.environment["CI"] == nil
    }

    @inline(__always)
    func tick() {
        count += 1
        if count >= nextReport {
            nextReport += 1 << 20
            report()
        }
    }

    private func report() {
        guard enabled else { return }
        if let total, total > 0 {
            Diagnostics.rawNoNewline("\r\(label): \(count) / \(total) events (\(min(100, count * 100 / total))%)")
        } else {
            Diagnostics.rawNoNewline("\r\(label): \(count) events")
        }
    }

    func finish() {
        guard enabled, count >= 1 << 20 else { return }
        Diagnostics.rawNoNewline("\r\u{1B}[K")
    }
}
