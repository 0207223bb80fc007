import LifetraceCore
import LifetraceFormat

extension Finding: CustomStringConvertible {
    /// The finding as `lifetrace check` prints it, like a compiler's diagnostic, with the events that led to it:
    ///
    /// ```
    /// run.jsonl: t=24.188276s event #7 scene S1: error LT003: sceneDidEnterBackground without sceneWillResignActive
    ///     scene.didEnterBackground while scene is active
    ///   > #7 {"t":24188276790,"ev":"scene.didEnterBackground","scene":"S1","dur":4845990}
    /// ```
    ///
    /// What the trace names (scenes, labels, the file) is shown with its control characters escaped
    /// (``PrintableText``), so that the text is safe on a terminal and keeps its lines.
    public var description: String {
        var lines: [String] = []
        let scene = scene.map { " scene \($0)" } ?? ""
        lines.append(
            "\(file): t=\(Nanoseconds.seconds(t)) event #\(eventIndex)\(scene): "
                + "\(severity.rawValue) \(rule.id): \(rule.title)")
        var detail = "    " + message
        if let share = budgetShare { detail += " (\(Int64((share * 100).rounded()))% of the budget)" }
        lines.append(detail)
        for item in context {
            let marker = item.index == eventIndex ? ">" : " "
            lines.append("  \(marker) #\(item.index) \(JSONLinesEncoder.line(item.event))")
        }
        return lines.map(PrintableText.escaped).joined(separator: "\n")
    }
}
