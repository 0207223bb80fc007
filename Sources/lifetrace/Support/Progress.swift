import Foundation

/// A progress line on standard error for long work, shown only when standard error is a terminal.
final class Progress {
    private let total: Int?
    private let label: String
    private let unit: String
    private let step: Int
    private let enabled: Bool
    private let diagnostics: Diagnostics
    private var count = 0
    private var nextReport: Int

    /// Progress on `total` (if known) units, reported every `step` of them on the standard error of `console`.
    init(total: Int?, label: String, unit: String = "events", every step: Int = 1 << 20, on console: Console) {
        self.total = total
        self.label = label
        self.unit = unit
        self.step = step
        nextReport = step
        diagnostics = console.diagnostics
        self.enabled =
            CommandLineSystem.isTerminal(console.error) && ProcessInfo.processInfo.environment["CI"] == nil
    }

    @inline(__always)
    func tick() {
        update(to: count &+ 1)
    }

    private func report() {
        guard enabled else { return }
        if let total, total > 0 {
            diagnostics.rawNoNewline("\r\(label): \(count) / \(total) \(unit) (\(min(100, count * 100 / total))%)")
        } else {
            diagnostics.rawNoNewline("\r\(label): \(count) \(unit)")
        }
    }

    /// Sets the count to `count` units (one more per ``tick()``, or a block's at a time), reporting when it passes a
    /// step.
    @inline(__always)
    func update(to count: Int) {
        self.count = count
        guard count >= nextReport else { return }
        nextReport = (count / step + 1) * step
        report()
    }

    func finish() {
        guard enabled, count >= step else { return }
        diagnostics.rawNoNewline("\r\u{1B}[K")
    }
}
