import LifetraceAnalysis
import LifetraceCore

/// A terminal timeline: one row of block characters per lane, fitted to a width, then the summary and
/// the findings, their lines wrapped at spaces to the width.
public enum TextTimeline {
    /// Renders `traces` in `width` columns (at least 40), with ANSI colour when `color` is set.
    public static func render(_ traces: [ReportedTrace], width: Int = 80, color: Bool = false) -> String {
        let width = max(width, 40)
        var out: [String] = []
        for trace in traces {
            let result = trace.result
            out.append(contentsOf: timeline(trace, width: width, color: color))
            for finding in result.findings {
                out.append(contentsOf: TextWrapping.wrap(TextReport.finding(finding), width: width))
            }
            for line in TextReport.summary(result).split(separator: "\n", omittingEmptySubsequences: false) {
                out.append(contentsOf: TextWrapping.wrap(String(line), width: width))
            }
            out.append("")
        }
        return out.joined(separator: "\n")
    }

    static let glyphs: [String: Character] = [
        "active": "█", "inactive": "▓", "background": "▒", "suspended": "░",
        "starting": "▂", "running": "■", "stopping": "▚",
    ]
    static let colors: [String: String] = [
        "active": "32", "inactive": "33", "background": "34", "suspended": "90",
        "starting": "35", "running": "36", "stopping": "31",
    ]

    static func timeline(_ trace: ReportedTrace, width: Int, color: Bool) -> [String] {
        let file = PrintableText.escaped(trace.result.file)
        let timeline = trace.timeline
        guard timeline.end > timeline.start else { return ["\(file): no timeline"] }
        let labelWidth = 16
        let columns = width - labelWidth - 1
        let span = Double(timeline.end - timeline.start)
        // The file and span, then the legend, on as many lines as the width takes: a key too long for a line of
        // its own goes item by item.
        var keys = [["█ active", "▓ inactive", "▒ background", "░ suspended"]]
        if timeline.lanes.contains(where: \.isService) {
            keys.append(["services:", "▂ starting", "■ running", "▚ stopping"])
        }
        let legend = keys.flatMap { items in
            let key = items.joined(separator: " ")
            return key.count <= width - 2 ? [key] : items
        }
        var lines = TextWrapping.join(
            ["\(file)", "0 … \(Nanoseconds.short(timeline.end - timeline.start))"] + legend,
            separator: "  ", width: width)
        for lane in timeline.lanes {
            // Each column shows the state that covers most of its time.
            var cover = [[String: Int64]](repeating: [:], count: columns)
            for segment in lane.segments {
                let first = Int(Double(segment.start - timeline.start) / span * Double(columns))
                let last = Int(Double(segment.end - timeline.start) / span * Double(columns))
                for column in max(0, first)...min(columns - 1, max(first, last)) {
                    let columnStart = timeline.start + Int64(Double(column) / Double(columns) * span)
                    let columnEnd = timeline.start + Int64(Double(column + 1) / Double(columns) * span)
                    let overlap = min(segment.end, columnEnd) - max(segment.start, columnStart)
                    if overlap > 0 { cover[column][segment.state, default: 0] += overlap }
                }
            }
            var row = ""
            var current: String?
            for column in cover {
                let state = column.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key
                if color, state != current {
                    row += state.map { "\u{1B}[\(colors[$0]!)m" } ?? "\u{1B}[0m"
                    current = state
                }
                row.append(state.flatMap { glyphs[$0] } ?? " ")
            }
            if color { row += "\u{1B}[0m" }
            // A lane's name is a scene's: its control characters escaped, it cannot drive the terminal.
            let name = PrintableText.escaped(lane.name)
            let label = name.count > labelWidth - 1 ? String(name.prefix(labelWidth - 2)) + "…" : name
            lines.append(label.padding(toLength: labelWidth, withPad: " ", startingAt: 0) + "│" + row)
        }
        return lines
    }
}

extension String {
    fileprivate func padding(toLength length: Int, withPad pad: String, startingAt _: Int) -> String {
        count >= length ? self : self + String(repeating: pad, count: length - count)
    }
}
