import Foundation
public import LifetraceAnalysis
public import LifetraceCore
public import LifetraceFormat

/// Renders `lifetrace check` results as text, JSON (`Schemas/check-result.schema.json`), JUnit XML, GitHub
/// workflow annotations or SARIF 2.1.0.
public enum CheckOutput {
    /// The forms `lifetrace check` writes.
    public enum Format: String, CaseIterable, Sendable {
        /// Compiler-like lines, then a summary of each trace.
        case text
        /// `Schemas/check-result.schema.json`.
        case json
        /// JUnit XML: a test case per trace, a failure per error.
        case junit
        /// GitHub workflow annotations (`::error file=...::`).
        case github
        /// SARIF 2.1.0.
        case sarif
    }

    /// The whole output for `results` in `format`. The traces that could not be read (`unreadable`, which the
    /// command also says on standard error) are errors in JUnit, GitHub annotations and SARIF, so that a report
    /// read without the exit status does not pass for a clean run; with `strict`, JUnit fails warnings too, as
    /// the exit status does.
    public static func render(
        _ results: [AnalysisResult], unreadable: [TraceError] = [], strict: Bool = false,
        format: Format
    ) -> String {
        switch format {
        case .json: return json(results).jsonText + "\n"
        case .junit: return junit(results, unreadable: unreadable, strict: strict)
        case .github: return github(results, unreadable: unreadable)
        case .sarif: return sarif(results, unreadable: unreadable).jsonText + "\n"
        case .text: return text(results)
        }
    }

    static func text(_ results: [AnalysisResult]) -> String {
        var blocks: [String] = []
        for result in results {
            for finding in result.findings { blocks.append(TextReport.finding(finding)) }
        }
        for result in results { blocks.append(TextReport.summary(result)) }
        return blocks.isEmpty ? "" : blocks.joined(separator: "\n") + "\n"
    }

    static func omittedFindings(_ result: AnalysisResult) -> JSONValue {
        .array(
            result.omittedFindings.map { omitted in
                JSONValue.object([
                    ("rule", .string(omitted.rule.id.rawValue)), ("severity", .string(omitted.severity.rawValue)),
                    ("count", .int(Int64(omitted.count))),
                ])
            })
    }

    static func inputWarnings(_ result: AnalysisResult) -> JSONValue {
        .array(result.inputWarnings.map { JSONValue.string($0.description) })
    }

    /// The warnings of reading the traces, and the traces that could not be read, as SARIF tool notifications.
    static func notifications(_ results: [AnalysisResult], unreadable: [TraceError]) -> JSONValue {
        func notification(level: String, file: String, message: String) -> JSONValue {
            let location = JSONValue.object([
                ("physicalLocation", .object([("artifactLocation", .object([("uri", .string(file))]))]))
            ])
            return .object([
                ("level", .string(level)),
                ("message", .object([("text", .string(message))])),
                ("locations", .array([location])),
            ])
        }
        return .array(
            results.flatMap(\.inputWarnings).map { notification(level: "warning", file: $0.file, message: $0.message) }
                + unreadable.map { notification(level: "error", file: $0.file, message: $0.description) })
    }

    static func times(_ times: StateTimes) -> JSONValue {
        .object([
            ("active_ns", .int(times.active)), ("inactive_ns", .int(times.inactive)),
            ("background_ns", .int(times.background)), ("suspended_ns", .int(times.suspended)),
        ])
    }

    /// A service's times (`Schemas/check-result.schema.json`, `service_times`).
    static func serviceTimes(_ times: ServiceTimes) -> JSONValue {
        .object([
            ("starting_ns", .int(times.starting)), ("running_ns", .int(times.running)),
            ("stopping_ns", .int(times.stopping)),
        ])
    }

    static func silentExits(_ estimate: SilentExitEstimate) -> JSONValue {
        .object([
            ("count", .int(Int64(estimate.exits))), ("intervals_ns", .int(estimate.intervals)),
            ("relaunches", .int(Int64(estimate.relaunches))), ("relaunch_gaps_ns", .int(estimate.relaunchGaps)),
            ("not_running_ns", .int(estimate.notRunning)),
        ])
    }

    /// The JSON document of `Schemas/check-result.schema.json`.
    public static func json(_ results: [AnalysisResult]) -> JSONValue {
        .object([
            ("lifetrace_check", .int(1)),
            (
                "results",
                .array(
                    results.map { result in
                        .object([
                            ("file", .string(result.file)),
                            ("events", .int(Int64(result.eventCount))),
                            ("errors", .int(Int64(result.count(.error)))),
                            ("warnings", .int(Int64(result.count(.warning)))),
                            ("input_warnings", inputWarnings(result)),
                            ("omitted_findings", omittedFindings(result)),
                            ("findings", .array(result.findings.map(finding))),
                            ("times", times(result.totals)),
                            (
                                "suspension_basis",
                                .string(result.suspensionFromGroundTruth ? "ground-truth" : "inferred")
                            ),
                            ("suspension_count", .int(Int64(result.suspensionCount))),
                            ("silent_exits", silentExits(result.silentExits)),
                            ("process_count", .int(Int64(result.processCount))),
                            (
                                "process_ends",
                                .object(
                                    ProcessEnd.allCases.compactMap { end in
                                        result.endCounts[end].map { (end.rawValue, JSONValue.int(Int64($0))) }
                                    })
                            ),
                            (
                                "suspensions",
                                .array(
                                    result.suspensions.map {
                                        .object([
                                            ("start_t", .int($0.start)), ("end_t", .int($0.end)),
                                            ("basis", .string($0.basis)),
                                        ])
                                    })
                            ),
                            (
                                "processes",
                                .array(
                                    result.processes.map { process in
                                        .object([
                                            ("launch_t", .int(process.launchT)),
                                            ("reason", process.launchReason.map { .string($0) } ?? .null),
                                            ("last_t", .int(process.lastT)),
                                            ("end", .string(process.end.rawValue)),
                                            ("basis", .string(process.endBasis)),
                                            ("times", times(process.times)),
                                        ])
                                    })
                            ),
                            (
                                "scenes",
                                .array(
                                    result.scenes.map {
                                        .object([("scene", .string($0.scene)), ("times", times($0.times))])
                                    })
                            ),
                            ("service_times", result.serviceTotals.map(serviceTimes) ?? .null),
                            (
                                "services",
                                .array(
                                    (result.services ?? []).map {
                                        .object([("service", .string($0.service)), ("times", serviceTimes($0.times))])
                                    })
                            ),
                        ])
                    })
            ),
        ])
    }

    static func finding(_ finding: Finding) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("rule", .string(finding.rule.id.rawValue)),
            ("severity", .string(finding.severity.rawValue)),
            ("title", .string(finding.rule.title)),
            ("message", .string(finding.message)),
            ("event_index", .int(Int64(finding.eventIndex))),
            ("t", .int(finding.t)),
            ("event", .string(finding.eventName)),
            ("scene", finding.scene.map { .string($0) } ?? .null),
        ]
        if let measured = finding.measured { members.append(("measured_ns", .int(measured))) }
        if let budget = finding.budget { members.append(("budget_ns", .int(budget))) }
        members.append(("baseline_key", .string(finding.baselineKey)))
        return .object(members)
    }
}
