import Foundation
import LifetraceAnalysis
import LifetraceChecking
import LifetraceFormat
import LifetraceReport
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// What `lifetrace check` prints in each of its formats, rendered in process from the sample traces' results.
@Suite struct CheckOutputTests {
    static let clean = PackagePaths.path("SampleTraces/seed-cold-launch.lifetrace")
    /// Two LT003 errors: scene S1 enters the background twice without resigning active first.
    static let faulty = PackagePaths.path("SampleTraces/fault-background-without-resign.lifetrace")

    static func results(_ paths: String...) throws -> [AnalysisResult] {
        try TraceCheck(PreparedAnalysis(codec: .zstd)).run(paths, workers: 2).map { try $0.get() }
    }

    static func jsonObject(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func textReadsLikeACompilerWithTheEventsThatLedThere() throws {
        let text = CheckOutput.render(try Self.results(Self.faulty, Self.clean), format: .text)
        let first = try #require(text.split(separator: "\n").first)
        #expect(first.hasPrefix("\(Self.faulty): t="))
        #expect(first.contains(" scene S1: error LT003: sceneDidEnterBackground without sceneWillResignActive"))
        #expect(text.contains("  > #"))
        #expect(text.contains("\n\(Self.clean): 12 events, 0 errors, 0 warnings\n"))
    }

    @Test func jsonFollowsTheSchemaShape() throws {
        let object = try Self.jsonObject(CheckOutput.render(try Self.results(Self.faulty, Self.clean), format: .json))
        #expect(object["lifetrace_check"] as? Int == 1)
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results.map { $0["file"] as? String } == [Self.faulty, Self.clean])
        let findings = try #require(results[0]["findings"] as? [[String: Any]])
        #expect(findings.count == 2)
        #expect(findings.allSatisfy { $0["rule"] as? String == "LT003" && $0["severity"] as? String == "error" })
        let schema = try Self.jsonObject(
            String(
                decoding: try Data(
                    contentsOf: URL(
                        fileURLWithPath:
                            PackagePaths.path("Schemas/check-result.schema.json"))), as: UTF8.self))
        let required =
            (((schema["properties"] as? [String: Any])?["results"] as? [String: Any])?["items"] as? [String: Any])?[
                "required"] as? [String]
        #expect(Set(results[0].keys) == Set(try #require(required)))
        let findingRequired =
            ((schema["$defs"] as? [String: Any])?["finding"] as? [String: Any])?["required"] as? [String]
        for finding in findings { #expect(Set(try #require(findingRequired)).isSubset(of: Set(finding.keys))) }
    }

    /// JUnit: a test suite per trace, a test case per rule that fired (plus one for a clean trace), a failure per
    /// error finding.
    @Test func junitIsWellFormedXMLWithAFailurePerError() throws {
        let document = try XMLDocumentProbe(
            CheckOutput.render(try Self.results(Self.faulty, Self.clean), format: .junit))
        #expect(document.elements["testsuites"] == 1)
        #expect(document.elements["testsuite"] == 2)
        #expect(document.elements["failure"] == 2)
        #expect(document.elements["testcase"] == 3)
    }

    /// GitHub's workflow commands: `::error file=F,line=L,title=T::MESSAGE`, one per finding, none for a clean trace.
    @Test func githubIsOneAnnotationPerFinding() throws {
        let lines = CheckOutput.render(try Self.results(Self.faulty, Self.clean), format: .github).split(
            separator: "\n")
        #expect(lines.count == 2)
        #expect(
            lines.allSatisfy {
                $0.hasPrefix("::error file=\(Self.faulty)")
                    && $0.contains("title=LT003 sceneDidEnterBackground without sceneWillResignActive::")
            })
    }

    /// SARIF 2.1.0: one run, the whole rule catalogue as the driver's rules, a result per finding.
    @Test func sarifHasTheRulesAndTheResults() throws {
        let object = try Self.jsonObject(CheckOutput.render(try Self.results(Self.faulty), format: .sarif))
        #expect(object["version"] as? String == "2.1.0")
        let runs = try #require(object["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let results = try #require(runs[0]["results"] as? [[String: Any]])
        #expect(results.count == 2)
        #expect(results.allSatisfy { $0["ruleId"] as? String == "LT003" && $0["level"] as? String == "error" })
        let driver = (runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any]
        let rules = try #require(driver?["rules"] as? [[String: Any]])
        #expect(Set(rules.compactMap { $0["id"] as? String }) == Set(RuleCatalog.all.map(\.id.rawValue)))
    }

    /// A trace that could not be read fails the run (exit 2) and its report too: read without the exit status,
    /// JUnit, GitHub annotations and SARIF still say it; text prints nothing for it on standard output.
    @Test func anUnreadableTraceIsAnErrorInEveryMachineFormat() throws {
        let unreadable = [
            TraceError(.malformed, file: "bad.jsonl", at: .line(2), #"scene.didBecomeActive needs "scene""#)
        ]
        let clean = try Self.results(Self.clean)
        let junit = try XMLDocumentProbe(CheckOutput.render(clean, unreadable: unreadable, format: .junit))
        #expect(junit.elements["error"] == 1)
        #expect(junit.elements["testsuite"] == 2)
        #expect(
            CheckOutput.render(clean, unreadable: unreadable, format: .junit).contains(
                #"<testsuites name="lifetrace check" tests="2" failures="0" errors="1">"#))
        #expect(
            CheckOutput.render(clean, unreadable: unreadable, format: .github)
                == "::error file=bad.jsonl,title=unreadable::bad.jsonl:2: scene.didBecomeActive needs \"scene\"\n")
        let sarif = try Self.jsonObject(CheckOutput.render(clean, unreadable: unreadable, format: .sarif))
        let invocation = try #require(
            ((sarif["runs"] as? [[String: Any]])?.first?["invocations"] as? [[String: Any]])?.first)
        #expect(invocation["executionSuccessful"] as? Bool == false)
        let notifications = try #require(invocation["toolExecutionNotifications"] as? [[String: Any]])
        #expect(notifications.map { $0["level"] as? String } == ["error"])
        #expect(CheckOutput.render([], unreadable: unreadable, format: .text) == "")
        #expect(CheckOutput.render(clean, format: .text).hasPrefix("\(Self.clean): 12 events"))
    }

    /// With `--strict` a warning fails the run (exit 1), and JUnit fails it too rather than skipping it.
    @Test func strictJUnitFailsWarnings() throws {
        let directory = TemporaryDirectory()
        // The first scene active 7 s after launch: LT053, a warning (budget 5 s).
        let slow = directory.write(
            "slow.jsonl",
            text: """
                {"lifetrace":1,"clock":"continuous","app":"com.example.x","scene_manifest":true}
                {"t":0,"ev":"process.launch","reason":"user","pid":733}
                {"t":1800000,"ev":"app.didFinishLaunching","dur":30500000}
                {"t":33000000,"ev":"scene.willConnect","scene":"main","dur":15000000}
                {"t":48600000,"ev":"scene.willEnterForeground","scene":"main","dur":1100000}
                {"t":7000000000,"ev":"scene.didBecomeActive","scene":"main","dur":2300000}

                """)
        let results = try Self.results(slow)
        #expect(results[0].findings.map { "\($0.rule.id) \($0.severity)" } == ["LT053 warning"])
        let lenient = try XMLDocumentProbe(CheckOutput.render(results, format: .junit))
        #expect(lenient.elements["skipped"] == 1 && lenient.elements["failure"] == nil)
        let strict = try XMLDocumentProbe(CheckOutput.render(results, strict: true, format: .junit))
        #expect(strict.elements["failure"] == 1 && strict.elements["skipped"] == nil)
        #expect(CheckOutput.render(results, strict: true, format: .junit).contains(#"failures="1" skipped="0""#))
    }

    @Test(arguments: CheckOutput.Format.allCases)
    func aBaselineOfTheTracesOwnFindingsLeavesACleanReport(format: CheckOutput.Format) throws {
        let directory = TemporaryDirectory()
        let baseline = directory.write(
            "baseline.json", text: CheckOutput.render(try Self.results(Self.faulty), format: .json))
        let check = try TraceCheck(PreparedAnalysis(codec: .zstd), baselinePath: baseline)
        let accepted = try check.run([Self.faulty], workers: 1).map { try $0.get() }
        let clean = try TraceCheck(PreparedAnalysis(codec: .zstd)).run([Self.clean], workers: 1).map { try $0.get() }
        // The same trace with its findings accepted prints as a trace without findings would.
        #expect(accepted[0].findings.isEmpty)
        let rendered = CheckOutput.render(accepted, format: format)
        #expect(!rendered.contains("LT003") || format == .sarif, "\(format)")
        #expect(CheckOutput.render(clean, format: format).isEmpty == rendered.isEmpty)
    }
}
