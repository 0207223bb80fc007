import Foundation
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
        let fixture = try ExtraModelFixture(in: directory)
        let (models, trace) = (fixture.models, fixture.trace)
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
            #expect(
                result.stderr == "error: \(missing): cannot read the models directory\n", "\(command): \(result.stderr)"
            )
        }
    }

    /// The exit codes a configuration leads to (what each setting does is tested in process): clean 0, a warning
    /// 0 or with --strict 1, a configuration that does not read 2 with one line naming it.
    @Test func aConfigsExitCodes() throws {
        let slow = PackagePaths.path("SampleTraces/fault-slow-background-handler.lifetrace")
        #expect(try CommandLineTool.run(["check", slow]).status == 1)
        let warning = directory.write("warn.json", text: #"{"rules":{"LT050":"warning"}}"#)
        #expect(try CommandLineTool.run(["check", "--config", warning, slow]).status == 0)
        #expect(try CommandLineTool.run(["check", "--strict", "--config", warning, slow]).status == 1)
        let broken = directory.write("broken.json", text: #"{"budgets":{"coffee":"5m"}}"#)
        let result = try CommandLineTool.run(["check", "--config", broken, slow])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("error: \(broken)"))
        #expect(result.stderr.contains("unknown budget \"coffee\""))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func rulesListsTheCatalogueAndExplainPrintsOne() throws {
        let rules = try CommandLineTool.run(["rules"])
        #expect(rules.status == 0)
        #expect(rules.stdout.contains("LT003  error   sceneDidEnterBackground without sceneWillResignActive\n"))
        let explain = try CommandLineTool.run(["explain", "lt080"])
        #expect(explain.status == 0)
        #expect(explain.stdout.contains("Fix: Save in sceneDidEnterBackground"))
        #expect(
            explain.stdout.contains(
                "Source: Apple, “applicationWillTerminate(_:)” (https://developer.apple.com/documentation/uikit/uiapplicationdelegate/applicationwillterminate(_:))"
            ))
        // Users have Apple's documentation, not lifetrace's sources: every rule cites a page by title and address —
        // a service's, its orchestrator's and swift-service-lifecycle's.
        let serviceSources = ["Source: Kubernetes, “", "Source: systemd, “", "Source: swift-service-lifecycle, “"]
        for rule in rules.stdout.split(separator: "\n").compactMap({ $0.split(separator: " ").first })
        where rule.hasPrefix("LT") {
            let text = try CommandLineTool.run(["explain", String(rule)]).stdout
            let cited =
                rule.hasPrefix("LT09")
                ? serviceSources.contains { text.contains($0) } : text.contains("Source: Apple, “")
            #expect(cited && text.contains("https://"), "\(rule)")
            #expect(!text.contains("seeds/"), "\(rule)")
        }
        #expect(try CommandLineTool.run(["explain", "LT999"]).status == 2)
    }
}
