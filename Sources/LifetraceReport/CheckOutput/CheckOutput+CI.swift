import Foundation
import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat

/// What CI reads: JUnit XML, GitHub's workflow commands, SARIF.
extension CheckOutput {
    static func xml(_ text: String) -> String {
        MarkupEscaping.escape(text)
    }

    /// JUnit XML: a test suite per trace, a failing test case per error finding (warnings are skipped cases, or
    /// failing ones if `strict`), and a test suite with an error per trace that could not be read.
    static func junit(_ results: [AnalysisResult], unreadable: [TraceError] = [], strict: Bool = false) -> String {
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>"]
        let failing = { (result: AnalysisResult) in result.count(.error) + (strict ? result.count(.warning) : 0) }
        let failures = results.reduce(0) { $0 + failing($1) }
        let tests = results.reduce(0) { $0 + max(1, $1.findings.count) } + unreadable.count
        lines.append(
            "<testsuites name=\"lifetrace check\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(unreadable.count)\">"
        )
        for error in unreadable {
            lines.append("  <testsuite name=\"\(xml(error.file))\" tests=\"1\" failures=\"0\" errors=\"1\">")
            lines.append("    <testcase classname=\"\(xml(error.file))\" name=\"read the trace\">")
            lines.append("      <error message=\"\(xml(error.description))\" type=\"unreadable\"/>")
            lines.append("    </testcase>")
            lines.append("  </testsuite>")
        }
        for result in results {
            let cases = max(1, result.findings.count)
            let skipped = strict ? 0 : result.count(.warning)
            lines.append(
                "  <testsuite name=\"\(xml(result.file))\" tests=\"\(cases)\" failures=\"\(failing(result))\" skipped=\"\(skipped)\">"
            )
            if result.findings.isEmpty {
                lines.append("    <testcase classname=\"\(xml(result.file))\" name=\"lifecycle rules\"/>")
            }
            if !result.inputWarnings.isEmpty {
                let text = result.inputWarnings.map { $0.description }.joined(separator: "\n")
                lines.append("    <system-err>\(xml(text))</system-err>")
            }
            for finding in result.findings {
                let name = "\(finding.rule.id) event #\(finding.eventIndex)"
                lines.append("    <testcase classname=\"\(xml(result.file))\" name=\"\(xml(name))\">")
                let body = xml(TextReport.finding(finding))
                if finding.severity == .error || strict {
                    lines.append(
                        "      <failure message=\"\(xml(finding.rule.title))\" type=\"\(finding.rule.id)\">\(body)</failure>"
                    )
                } else {
                    lines.append("      <skipped message=\"warning \(finding.rule.id): \(xml(finding.rule.title))\"/>")
                }
                lines.append("    </testcase>")
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    static func githubEscape(_ text: String, property: Bool) -> String {
        var escaped = text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
        if property {
            escaped = escaped.replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
        }
        // The other control characters (NUL, ESC, BEL) would reach the log's terminal raw.
        return PrintableText.escaped(escaped)
    }

    /// GitHub workflow commands: `::error file=F,title=LT003 ...::message`; a trace that could not be read is an
    /// error titled `unreadable`.
    static func github(_ results: [AnalysisResult], unreadable: [TraceError] = []) -> String {
        var lines = unreadable.map { error in
            "::error file=\(githubEscape(error.file, property: true)),title=unreadable::"
                + githubEscape(error.description, property: false)
        }
        for result in results {
            for warning in result.inputWarnings {
                lines.append(
                    "::warning file=\(githubEscape(warning.file, property: true)),title=input::"
                        + githubEscape(warning.message, property: false))
            }
            for finding in result.findings {
                let title = "\(finding.rule.id) \(finding.rule.title)"
                let message =
                    "t=\(Nanoseconds.seconds(finding.t)) event #\(finding.eventIndex)"
                    + (finding.scene.map { " scene \($0)" } ?? "") + ": " + finding.message
                lines.append(
                    "::\(finding.severity.rawValue) file=\(githubEscape(finding.file, property: true)),"
                        + "title=\(githubEscape(title, property: true))::\(githubEscape(message, property: false))")
            }
        }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    /// SARIF 2.1.0 for code-scanning views.
    static func sarif(_ results: [AnalysisResult], unreadable: [TraceError] = []) -> JSONValue {
        let rules = RuleCatalog.all.map { rule -> JSONValue in
            .object([
                ("id", .string(rule.id.rawValue)),
                ("name", .string(rule.title)),
                ("shortDescription", .object([("text", .string(rule.title))])),
                ("fullDescription", .object([("text", .string(rule.explanation))])),
                ("help", .object([("text", .string(rule.fix + " Source: " + rule.source))])),
                ("defaultConfiguration", .object([("level", .string(rule.severity == .error ? "error" : "warning"))])),
            ])
        }
        var sarifResults: [JSONValue] = []
        for result in results {
            for finding in result.findings {
                sarifResults.append(
                    .object([
                        ("ruleId", .string(finding.rule.id.rawValue)),
                        ("level", .string(finding.severity == .error ? "error" : "warning")),
                        ("message", .object([("text", .string(finding.message))])),
                        (
                            "locations",
                            .array([
                                .object([
                                    (
                                        "physicalLocation",
                                        .object([("artifactLocation", .object([("uri", .string(finding.file))]))])
                                    ),
                                    (
                                        "logicalLocations",
                                        .array([
                                            .object([
                                                ("name", .string("event #\(finding.eventIndex)")),
                                                (
                                                    "fullyQualifiedName",
                                                    .string("\(finding.file)#event-\(finding.eventIndex)")
                                                ),
                                            ])
                                        ])
                                    ),
                                ])
                            ])
                        ),
                        ("partialFingerprints", .object([("lifetraceBaselineKey", .string(finding.baselineKey))])),
                    ]))
            }
        }
        return .object([
            ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
            ("version", .string("2.1.0")),
            (
                "runs",
                .array([
                    .object([
                        (
                            "tool",
                            .object([
                                (
                                    "driver",
                                    .object([
                                        ("name", .string("lifetrace")),
                                        ("informationUri", .string("https://lifetrace.dev")),
                                        ("rules", .array(rules)),
                                    ])
                                )
                            ])
                        ),
                        ("results", .array(sarifResults)),
                        (
                            "invocations",
                            .array([
                                .object([
                                    ("executionSuccessful", .bool(unreadable.isEmpty)),
                                    ("toolExecutionNotifications", notifications(results, unreadable: unreadable)),
                                ])
                            ])
                        ),
                    ])
                ])
            ),
        ])
    }
}
