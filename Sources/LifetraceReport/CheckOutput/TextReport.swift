import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat

/// The compiler-like text `lifetrace check` prints: one line per finding with the events before it, then a
/// summary of each trace.
enum TextReport {
    /// The lines for one finding: `FILE: t=12.345678s event #812 scene S1: error LT003: TITLE`, the message,
    /// and the events that led to it.
    static func finding(_ finding: Finding) -> String {
        finding.description
    }

    /// The summary of one trace: findings, processes and how they ended, time in each state, longest handlers.
    static func summary(_ result: AnalysisResult) -> String {
        var lines: [String] = []
        let errors = result.count(.error)
        let warnings = result.count(.warning)
        lines.append(
            "\(result.file): \(Plural.count(result.eventCount, "event")), \(Plural.count(errors, "error")), "
                + Plural.count(warnings, "warning"))
        for omitted in result.omittedFindings {
            lines.append(
                "  \(omitted.rule.id): \(omitted.count) more \(Plural.noun(omitted.count, omitted.severity.rawValue)) "
                    + "counted, not shown (the first \(TraceAnalyzer.keptFindingsPerRule) of a rule are kept)")
        }
        if let services = result.services {
            lines += serviceTimes(services)
        } else {
            let totals = result.totals
            let basis = result.suspensionFromGroundTruth ? "ground truth" : "inferred"
            lines.append(
                "  time: active \(Nanoseconds.short(totals.active)), inactive \(Nanoseconds.short(totals.inactive)), "
                    + "background \(Nanoseconds.short(totals.background)), suspended \(Nanoseconds.short(totals.suspended)) (\(basis))"
            )
        }
        if let explanation = result.silentExits.explanation { lines.append("  silent exits: " + explanation) }
        if result.processCount <= 12 {
            for (number, process) in result.processes.enumerated() {
                lines.append(
                    "  process \(number + 1): launched t=\(Nanoseconds.seconds(process.launchT))"
                        + (process.launchReason.map { " (\($0))" } ?? "")
                        + ", ended \(process.end.rawValue): \(process.endBasis)")
            }
        } else {
            let text = ProcessEnd.allCases.compactMap { end in result.endCounts[end].map { "\(end.rawValue) \($0)" } }
            lines.append("  \(Plural.count(result.processCount, "process")): " + text.joined(separator: ", "))
        }
        if let worst = result.longestHandlers.first {
            lines.append(
                "  longest handler: \(worst.name)\(worst.scene.map { " " + $0 } ?? "") \(Nanoseconds.short(worst.dur)) (event #\(worst.index))"
            )
        }
        // What the trace names (the file, launch reasons, a handler's scene) never reaches a terminal raw.
        return lines.map(PrintableText.escaped).joined(separator: "\n")
    }

    /// A service process's time, as its services' lifecycle says it (never foreground, background or suspended):
    /// one line per service, up to twelve, or their sum.
    static func serviceTimes(_ services: [ServiceTime]) -> [String] {
        func phases(_ times: ServiceTimes) -> String {
            "starting \(Nanoseconds.short(times.starting)), running \(Nanoseconds.short(times.running)), "
                + "stopping \(Nanoseconds.short(times.stopping))"
        }
        guard services.count <= 12 else {
            let total = services.reduce(into: ServiceTimes()) { $0.add($1.times) }
            return ["  time: \(Plural.count(services.count, "service")), summed: " + phases(total)]
        }
        guard !services.isEmpty else { return ["  time: no service started"] }
        return services.map { "  time: service \($0.service): " + phases($0.times) }
    }
}
