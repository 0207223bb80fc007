import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import LifetraceTestSupport
import Testing

/// `lifetrace check`, `rules` and `explain` as CI runs them.
@Suite struct CheckTests {
    let directory = TemporaryDirectory()
    static let clean = PackagePaths.path("SampleTraces/seed-cold-launch.lifetrace")
    static let faulty = PackagePaths.path("SampleTraces/fault-background-without-resign.lifetrace")

    @Test func aCleanTraceExitsZero() throws {
        let result = try CommandLineTool.run(["check", Self.clean])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.hasPrefix("\(Self.clean): 12 events, 0 errors, 0 warnings\n"))
    }

    @Test func findingsExitOneAndReadLikeACompiler() throws {
        let result = try CommandLineTool.run(["check", Self.faulty])
        #expect(result.status == 1)
        let first = try #require(result.stdout.split(separator: "\n").first)
        #expect(first.hasPrefix("\(Self.faulty): t="))
        #expect(first.contains(" scene S1: error LT003: sceneDidEnterBackground without sceneWillResignActive"))
        #expect(result.stdout.contains("  > #"))
    }

    @Test func badInputExitsTwo() throws {
        let bad = directory.write("bad.jsonl", text: "{\"t\":0,\"ev\":\"nope\"}\n")
        let result = try CommandLineTool.run(["check", Self.clean, bad])
        #expect(result.status == 2)
        #expect(result.stderr == "error: \(bad):1: unknown event \"nope\" (column 13)\n")
        #expect(result.stdout.contains("\(Self.clean): 12 events"), "the other traces are still reported")
    }

    @Test func jsonOutputFollowsTheSchemaShape() throws {
        let result = try CommandLineTool.run(["check", "--format", "json", Self.faulty, Self.clean])
        #expect(result.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["lifetrace_check"] as? Int == 1)
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results.map { $0["file"] as? String } == [Self.faulty, Self.clean])
        let findings = try #require(results[0]["findings"] as? [[String: Any]])
        #expect(findings.allSatisfy { $0["rule"] as? String == "LT003" && $0["severity"] as? String == "error" })
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath:
            PackagePaths.path("Schemas/check-result.schema.json")))) as? [String: Any])
        let required = (((schema["properties"] as? [String: Any])?["results"] as? [String: Any])?["items"] as? [String: Any])?["required"] as? [String]
        #expect(Set(results[0].keys) == Set(try #require(required)))
        let findingRequired = ((schema["$defs"] as? [String: Any])?["finding"] as? [String: Any])?["required"] as? [String]
        for finding in findings { #expect(Set(try #require(findingRequired)).isSubset(of: Set(finding.keys))) }
    }

    @Test func junitOutputIsWellFormedXMLWithAFailurePerError() throws {
        let result = try CommandLineTool.run(["check", "--format", "junit", Self.faulty, Self.clean])
        let document = try XMLDocumentProbe(result.stdout)
        #expect(document.elements["testsuite"] == 2)
        #expect(document.elements["failure"] == 2)
        #expect(document.elements["testcase"] == 3)
    }

    @Test func githubOutputIsOneAnnotationPerFinding() throws {
        let result = try CommandLineTool.run(["check", "--format", "github", Self.faulty])
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.hasPrefix("::error file=") && $0.contains("title=LT003 sceneDidEnterBackground without sceneWillResignActive::") })
    }

    @Test func sarifOutputHasTheRulesAndTheResults() throws {
        let result = try CommandLineTool.run(["check", "--format", "sarif", Self.faulty])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["version"] as? String == "2.1.0")
        let run = try #require((object["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 2 && results.allSatisfy { $0["ruleId"] as? String == "LT003" && $0["level"] as? String == "error" })
        let driver = ((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect((driver?["rules"] as? [Any])?.count ?? 0 >= 20)
    }

    @Test func aBaselineAcceptsKnownFindingsAndStillFailsOnNewOnes() throws {
        let baseline = directory.file("baseline.json")
        let recorded = try CommandLineTool.run(["check", "--format", "json", Self.faulty])
        try Data(recorded.stdout.utf8).write(to: URL(fileURLWithPath: baseline))
        #expect(try CommandLineTool.run(["check", "--baseline", baseline, Self.faulty]).status == 0)
        let other = PackagePaths.path("SampleTraces/fault-task-ended-twice.lifetrace")
        #expect(try CommandLineTool.run(["check", "--baseline", baseline, Self.faulty, other]).status == 1)
    }

    /// `--models` is read the same way by check, report and export; a directory that cannot be read is bad input.
    @Test func extraModelsApplyToCheckReportAndExportAlike() throws {
        let models = directory.path + "/models"
        try FileManager.default.createDirectory(atPath: models, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: PackagePaths.path("Tests/LifetraceAnalysisTests/Fixtures/android-activity.json"),
                                         toPath: models + "/android-activity.json")
        // onResume straight after onCreate: AND002 of the extra model.
        let trace = directory.write("activity.jsonl", text: """
            {"t":0,"ev":"process.launch","reason":"user"}
            {"t":10,"ev":"custom.onCreate"}
            {"t":20,"ev":"custom.onResume"}

            """)
        let checked = try CommandLineTool.run(["check", trace, "--models", models])
        #expect(checked.status == 1)
        #expect(checked.stdout.contains("error AND002"), "\(checked.stdout)")
        let report = try CommandLineTool.run(["report", trace, "--models", models, "-o", "-"])
        #expect(report.status == 0)
        #expect(report.stdout.contains("AND002"), "\(report.stdout)")
        let export = try CommandLineTool.run(["export", trace, "--models", models])
        #expect(export.status == 0)
        #expect(export.stdout.contains("AND002"))
        #expect(try CommandLineTool.run(["report", trace, "-o", "-"]).stdout.contains("AND002") == false)

        let missing = directory.path + "/no-such-models"
        for command in ["check", "report", "export"] {
            let result = try CommandLineTool.run([command, trace, "--models", missing])
            #expect(result.status == 2, "\(command)")
            #expect(result.stderr == "error: \(missing): cannot read the models directory\n", "\(command): \(result.stderr)")
        }
    }

    @Test func aConfigChangesBudgetsAndSeverities() throws {
        let slow = PackagePaths.path("SampleTraces/fault-slow-background-handler.lifetrace")
        #expect(try CommandLineTool.run(["check", slow]).status == 1)
        let lenient = directory.write("lifetrace.json", text: #"{"budgets":{"didEnterBackground":"10s"}}"#)
        #expect(try CommandLineTool.run(["check", "--config", lenient, slow]).status == 0)
        let warning = directory.write("warn.json", text: #"{"rules":{"LT050":"warning"}}"#)
        #expect(try CommandLineTool.run(["check", "--config", warning, slow]).status == 0)
        #expect(try CommandLineTool.run(["check", "--strict", "--config", warning, slow]).status == 1)
        let styled = directory.write("styled.json", text: #"{"styles":{"uikit-scenes":{"rules":{"LT050":"off"}}}}"#)
        #expect(try CommandLineTool.run(["check", "--config", styled, slow]).status == 0)
        let broken = directory.write("broken.json", text: #"{"budgets":{"coffee":"5m"}}"#)
        let result = try CommandLineTool.run(["check", "--config", broken, slow])
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown budget \"coffee\""))
    }

    @Test func budgetsCanBeSetPerScene() throws {
        let slow = PackagePaths.path("SampleTraces/fault-slow-background-handler.lifetrace")
        let forS1 = directory.write("s1.json", text: #"{"scenes":{"S1":{"budgets":{"didEnterBackground":"10s"}}}}"#)
        #expect(try CommandLineTool.run(["check", "--config", forS1, slow]).status == 0)
        let forOther = directory.write("s9.json", text: #"{"scenes":{"S9":{"budgets":{"didEnterBackground":"10s"}}}}"#)
        #expect(try CommandLineTool.run(["check", "--config", forOther, slow]).status == 1)
        // The phone call keeps scene "main" inactive for 55 s: a 1 s inactive budget for that scene only warns.
        let call = PackagePaths.path("SampleTraces/seed-phone-call.lifetrace")
        let strictScene = directory.write("main.json", text: #"{"scenes":{"main":{"budgets":{"inactiveEpisode":"1s"}}}}"#)
        let result = try CommandLineTool.run(["check", "--config", strictScene, call])
        #expect(result.status == 0)
        #expect(result.stdout.contains("warning LT054: inactive episode over budget"))
        #expect(try CommandLineTool.run(["check", "--strict", "--config", strictScene, call]).status == 1)
    }

    @Test func everyFaultSampleFailsAndEveryCleanSamplePasses() throws {
        for path in PackagePaths.sampleTraces(extension: "lifetrace") {
            let name = URL(fileURLWithPath: path).lastPathComponent
            let status = try CommandLineTool.run(["check", path]).status
            #expect(status == (name.hasPrefix("fault-") ? 1 : 0), "\(name)")
        }
    }

    @Test func rulesListsTheCatalogueAndExplainPrintsOne() throws {
        let rules = try CommandLineTool.run(["rules"])
        #expect(rules.status == 0)
        #expect(rules.stdout.contains("LT003  error   sceneDidEnterBackground without sceneWillResignActive\n"))
        let explain = try CommandLineTool.run(["explain", "lt080"])
        #expect(explain.status == 0)
        #expect(explain.stdout.contains("Fix: Save in sceneDidEnterBackground"))
        #expect(explain.stdout.contains("Source: Apple, “applicationWillTerminate(_:)” (https://developer.apple.com/documentation/uikit/uiapplicationdelegate/applicationwillterminate(_:))"))
        // Users have Apple's documentation, not lifetrace's sources: every rule cites a page by title and address —
        // a service's, its orchestrator's and swift-service-lifecycle's.
        let serviceSources = ["Source: Kubernetes, “", "Source: systemd, “", "Source: swift-service-lifecycle, “"]
        for rule in rules.stdout.split(separator: "\n").compactMap({ $0.split(separator: " ").first }) where rule.hasPrefix("LT") {
            let text = try CommandLineTool.run(["explain", String(rule)]).stdout
            let cited = rule.hasPrefix("LT09") ? serviceSources.contains { text.contains($0) } : text.contains("Source: Apple, “")
            #expect(cited && text.contains("https://"), "\(rule)")
            #expect(!text.contains("seeds/"), "\(rule)")
        }
        #expect(try CommandLineTool.run(["explain", "LT999"]).status == 2)
    }
}

/// Counts the elements of an XML document with Foundation's parser, failing on malformed XML.
struct XMLDocumentProbe {
    var elements: [String: Int] = [:]

    init(_ text: String) throws {
        let delegate = Counter()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = delegate
        guard parser.parse() else { throw parser.parserError ?? CocoaError(.coderReadCorrupt) }
        elements = delegate.counts
    }

    final class Counter: NSObject, XMLParserDelegate {
        var counts: [String: Int] = [:]

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            counts[name, default: 0] += 1
        }
    }
}
