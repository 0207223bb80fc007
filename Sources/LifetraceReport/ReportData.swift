import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat

/// The data every report draws from one analysis: the timeline in times relative to the trace's start, the
/// findings with their rules, and the summary.
enum ReportData {
    /// The states' codes, as the page's script lists them: an app's four, then a service's three.
    static let stateCodes = [
        "active": 0, "inactive": 1, "background": 2, "suspended": 3, "starting": 4, "running": 5,
        "stopping": 6,
    ]

    /// The JSON the HTML report's script renders.
    static func json(_ traces: [ReportedTrace]) -> JSONValue {
        .object([("traces", .array(traces.map(trace)))])
    }

    static func ms(_ ns: Int64) -> JSONValue {
        .double(Double(ns) / 1e6)
    }

    static func trace(_ trace: ReportedTrace) -> JSONValue {
        let (result, timeline) = (trace.result, trace.timeline)
        let origin = timeline.start
        func rel(_ t: Int64) -> JSONValue { ms(t - origin) }
        let lanes: [JSONValue] = timeline.lanes.map { lane in
            .object([
                ("name", .string(lane.name)),
                ("process", .bool(lane.isProcess)),
                ("service", .bool(lane.isService)),
                (
                    "segments",
                    .array(
                        lane.segments.map { segment in
                            .array([
                                rel(segment.start), rel(segment.end), .int(Int64(stateCodes[segment.state] ?? 2)),
                                .int((segment.inferred ? 1 : 0) | (segment.aggregated ? 2 : 0)),
                            ])
                        })
                ),
                (
                    "marks",
                    .array(
                        lane.marks.map { mark in
                            .array([
                                rel(mark.t), mark.dur.map(ms) ?? .null, .string(mark.name), .int(Int64(mark.index)),
                            ])
                        })
                ),
                ("dropped_marks", .int(Int64(lane.droppedMarks))),
            ])
        }
        let tasks: [JSONValue] = timeline.tasks.map { task in
            .object([
                ("id", .int(task.id)), ("name", task.name.map { .string($0) } ?? .null),
                ("start", rel(task.start)), ("end", task.end.map(rel) ?? .null),
                ("ended", .bool(task.ended)), ("expired", .bool(task.expired)),
                ("budget", task.budget.map(ms) ?? .null),
            ])
        }
        let findings: [JSONValue] = result.findings.map { finding in
            .object([
                ("rule", .string(finding.rule.id.rawValue)), ("severity", .string(finding.severity.rawValue)),
                ("title", .string(finding.rule.title)), ("message", .string(finding.message)),
                ("t", rel(finding.t)), ("index", .int(Int64(finding.eventIndex))),
                ("scene", finding.scene.map { .string($0) } ?? .null),
                ("context", .array(finding.context.map { .string("#\($0.index) " + JSONLinesEncoder.line($0.event)) })),
            ])
        }
        var ruleIDs: [RuleID] = []
        for finding in result.findings where !ruleIDs.contains(finding.rule.id) { ruleIDs.append(finding.rule.id) }
        let rules: [JSONValue] = ruleIDs.compactMap { id in
            guard let rule = result.findings.first(where: { $0.rule.id == id })?.rule else { return nil }
            return .object([
                ("id", .string(rule.id.rawValue)), ("title", .string(rule.title)),
                ("explanation", .string(rule.explanation)),
                ("fix", .string(rule.fix)), ("source", .string(rule.source)),
            ])
        }
        let totals = result.totals
        return .object([
            ("file", .string(result.file)),
            ("events", .int(Int64(result.eventCount))),
            ("duration", ms(timeline.end - timeline.start)),
            ("lanes", .array(lanes)),
            ("tasks", .array(tasks)),
            ("findings", .array(findings)),
            ("rules", .array(rules)),
            (
                "summary",
                .object([
                    ("active", ms(totals.active)), ("inactive", ms(totals.inactive)),
                    ("background", ms(totals.background)), ("suspended", ms(totals.suspended)),
                    ("suspension_basis", .string(result.suspensionFromGroundTruth ? "ground truth" : "inferred")),
                    // A service trace's time is its services' (its app-state times are zero).
                    (
                        "service_times",
                        result.serviceTotals.map {
                            .object([
                                ("starting", ms($0.starting)), ("running", ms($0.running)),
                                ("stopping", ms($0.stopping)),
                            ])
                        } ?? .null
                    ),
                    ("silent_exits", result.silentExits.explanation.map { .string($0) } ?? .null),
                    ("errors", .int(Int64(result.count(.error)))), ("warnings", .int(Int64(result.count(.warning)))),
                    ("processes", .int(Int64(result.processCount))),
                    (
                        "ends",
                        .object(
                            ProcessEnd.allCases.compactMap { end in
                                result.endCounts[end].map { (end.rawValue, JSONValue.int(Int64($0))) }
                            })
                    ),
                    (
                        "longest",
                        .array(
                            result.longestHandlers.map { handler in
                                // Cut as the timeline's names are: a scene's id of megabytes does not fill the page.
                                .object([
                                    ("name", .string(KeptName.cut(handler.name))),
                                    ("scene", handler.scene.map { .string(KeptName.cut($0)) } ?? .null),
                                    ("dur", ms(handler.dur)), ("index", .int(Int64(handler.index))),
                                ])
                            })
                    ),
                ])
            ),
        ])
    }

}
