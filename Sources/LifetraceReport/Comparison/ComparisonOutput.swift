import Foundation
import LifetraceCore
import LifetraceFormat
public import LifetraceSummary

/// What `compare` prints: a table for a terminal, Markdown for a pull-request comment, or JSON.
public enum ComparisonOutput {
    /// The output formats.
    public enum Format: String, Sendable, CaseIterable {
        case text, markdown, json
    }

    /// `comparison` in `format`.
    public static func render(_ comparison: BuildComparison, format: Format) -> String {
        switch format {
        case .text: text(comparison)
        case .markdown: markdown(comparison)
        case .json: json(comparison).jsonText + "\n"
        }
    }

    static func cells(_ row: BuildComparison.Row) -> [String] {
        var cells = rawCells(row)
        // A metric's name may come from a summary file: no control character of it reaches a terminal.
        cells[0] = PrintableText.escaped(cells[0])
        return cells
    }

    private static func rawCells(_ row: BuildComparison.Row) -> [String] {
        func value(_ percentile: Double?) -> String {
            percentile.map { Nanoseconds.short(Nanoseconds.rounded($0)) } ?? "-"
        }
        let change =
            row.change.map { change -> String in
                row.metric.family == .exit
                    ? String(format: "%+.1f pts", change * 100) : String(format: "%+.1f%%", change * 100)
            } ?? "-"
        let p = row.p.map { $0 < 0.0001 ? "<0.0001" : String(format: "%.4f", $0) } ?? "-"
        let verdict = row.verdict == .regression && !row.gates ? "changed" : row.verdict.rawValue
        if row.metric.family == .exit {
            let share = { (count: Int, share: Double?) in
                share.map { String(format: "%d (%.1f%%)", count, $0 * 100) } ?? String(count)
            }
            return [
                row.metric.description, share(row.base.count, row.shares?.base), "", "", "",
                share(row.new.count, row.shares?.new), "", "", "", change, p, verdict,
            ]
        }
        return [
            row.metric.description,
            String(row.base.count), value(row.base.p50), value(row.base.p90), value(row.base.p99),
            String(row.new.count), value(row.new.p50), value(row.new.p90), value(row.new.p99),
            change, p, verdict,
        ]
    }

    static let headings = [
        "metric", "base n", "p50", "p90", "p99", "new n", "p50", "p90", "p99", "change", "p", "verdict",
    ]

    /// The line under the table; `describe` names a metric (``markdownMetric(_:)`` in Markdown).
    static func summary(
        _ comparison: BuildComparison,
        describe: (ComparedMetric) -> String = { PrintableText.escaped($0.description) }
    ) -> String {
        let regressions = comparison.rows.filter { $0.gates && $0.verdict == .regression }.map { describe($0.metric) }
        let traces =
            "\(Plural.count(comparison.traces.base, "base trace")), \(comparison.traces.new) new"
            + bySide(comparison.unreadable, of: comparison.traces, "could not be read")
            + bySide(comparison.truncated, of: comparison.traces, "warning: truncated, read to their last whole frame")
        let rule = String(
            format:
                "one-sided Mann–Whitney U, Holm-corrected at alpha %g, and a median %.0f%% slower; exits: %.0f points more",
            comparison.thresholds.alpha, comparison.thresholds.minimumEffect * 100,
            comparison.thresholds.minimumExitIncrease * 100)
        return regressions.isEmpty
            ? "no regression: \(traces); \(rule)"
            : "regression in \(regressions.joined(separator: ", ")): \(traces); \(rule)"
    }

    /// What `counts` are, `label`, and how many of each side's `traces` they are — " (warning: truncated, read to
    /// their last whole frame: base 0 of 3, new 1 of 2)", the facts the JSON gives under the same names — or
    /// nothing when there are none on either side.
    private static func bySide(_ counts: (base: Int, new: Int), of traces: (base: Int, new: Int), _ label: String)
        -> String
    {
        guard counts.base + counts.new > 0 else { return "" }
        return " (\(label): base \(counts.base) of \(traces.base), new \(counts.new) of \(traces.new))"
    }

    static func text(_ comparison: BuildComparison) -> String {
        let table = [headings] + comparison.rows.map(cells)
        let widths = headings.indices.map { column in table.map { $0[column].count }.max()! }
        var out = ""
        for row in table {
            out +=
                row.enumerated().map { column, cell in
                    column == 0
                        ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                        : String(repeating: " ", count: widths[column] - cell.count) + cell
                }.joined(separator: "  ") + "\n"
        }
        return out + summary(comparison) + "\n"
    }

    static func markdown(_ comparison: BuildComparison) -> String {
        func line(_ cells: [String]) -> String {
            "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n"
        }
        let regressed = comparison.hasRegression
        var out = "### lifetrace compare: \(regressed ? "regression" : "no regression")\n\n"
        out += line(headings) + line(headings.indices.map { $0 == 0 ? "---" : "---:" })
        for row in comparison.rows {
            var cells = cells(row)
            cells[0] = markdownMetric(row.metric)
            if row.gates, row.verdict == .regression {
                cells[0] = "**\(cells[0])**"
                cells[11] = "**\(cells[11])**"
            }
            out += line(cells)
        }
        return out + "\n" + summary(comparison, describe: markdownMetric) + "\n"
    }

    /// A metric in Markdown: its family as it is, its name (from a trace or a summary file, any text) as a code
    /// span, control characters escaped: a name is shown, never rendered as HTML, a link or a mention.
    static func markdownMetric(_ metric: ComparedMetric) -> String {
        guard !metric.name.isEmpty else { return metric.family.rawValue }
        return metric.family.rawValue + " " + MarkupEscaping.markdownCode(PrintableText.escaped(metric.name))
    }

    static func json(_ comparison: BuildComparison) -> JSONValue {
        func number(_ value: Double?) -> JSONValue { value.map(JSONValue.double) ?? .null }
        func distribution(_ distribution: Distribution) -> JSONValue {
            .object([
                ("count", .int(Int64(distribution.count))), ("p50", number(distribution.p50)),
                ("p90", number(distribution.p90)), ("p99", number(distribution.p99)),
            ])
        }
        let thresholds = comparison.thresholds
        return .object([
            ("lifetrace_compare", 1),
            ("regression", .bool(comparison.hasRegression)),
            (
                "traces",
                .object([("base", .int(Int64(comparison.traces.base))), ("new", .int(Int64(comparison.traces.new)))])
            ),
            (
                "unreadable",
                .object([
                    ("base", .int(Int64(comparison.unreadable.base))), ("new", .int(Int64(comparison.unreadable.new))),
                ])
            ),
            (
                "truncated",
                .object([
                    ("base", .int(Int64(comparison.truncated.base))), ("new", .int(Int64(comparison.truncated.new))),
                ])
            ),
            (
                "thresholds",
                .object([
                    ("alpha", .double(thresholds.alpha)), ("min_effect", .double(thresholds.minimumEffect)),
                    ("min_count", .int(Int64(thresholds.minimumCount))),
                    ("min_exit_increase", .double(thresholds.minimumExitIncrease)),
                ])
            ),
            (
                "metrics",
                .array(
                    comparison.rows.map { row in
                        .object([
                            ("metric", .string(row.metric.description)),
                            ("family", .string(row.metric.family.rawValue)),
                            ("name", .string(row.metric.name)), ("gates", .bool(row.gates)),
                            ("base", distribution(row.base)), ("new", distribution(row.new)),
                            ("change", number(row.change)), ("p", number(row.p)),
                            ("verdict", .string(row.verdict.rawValue)),
                        ])
                    })
            ),
        ])
    }
}
