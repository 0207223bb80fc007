import Foundation
import LifetraceTestSupport
import Testing

/// The service scenarios as a CI job runs them: `simulate`, `check` against the ground truth the header carries,
/// `summarize`'s service rows, and `compare` gating a build whose drains got slower.
@Suite struct ServiceSimulateCompareTests {
    let directory = TemporaryDirectory()

    static func object(_ text: some StringProtocol) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// `check`'s findings are the header's expected_rules, and its exit status says whether there are any.
    @Test(arguments: ["rolling-deploy", "slow-drain", "crash-loop", "shutdown-overrun"])
    func checkFindsWhatTheGroundTruthExpects(scenario: String) throws {
        for groundTruth in [false, true] {
            let trace = directory.file("\(scenario)-\(groundTruth).lifetrace")
            let simulated = try CommandLineTool.run(
                ["simulate", "--scenario", scenario, "--seed", "9", "-o", trace]
                    + (groundTruth ? ["--ground-truth"] : []))
            try #require(simulated.status == 0, "\(simulated.stderr)")
            let dump = try CommandLineTool.run(["dump", trace])
            let header = try Self.object(try #require(dump.stdout.split(separator: "\n").first))
            let expected = try #require(header["expected_rules"] as? [String])
            #expect(header["lifecycle"] as? String == "service")
            let checked = try CommandLineTool.run(["check", "--format", "json", trace])
            #expect(checked.status == (expected.isEmpty ? 0 : 1), "\(checked.stdout)\(checked.stderr)")
            let findings = try #require(
                (try Self.object(checked.stdout)["results"] as? [[String: Any]])?.first?["findings"]
                    as? [[String: Any]])
            #expect(findings.compactMap { $0["rule"] as? String } == expected, "\(scenario): \(checked.stdout)")
        }
    }

    @Test func aServiceScenarioRefusesAppOptions() throws {
        let styled = try CommandLineTool.run([
            "simulate", "--scenario", "slow-drain", "--style", "swiftui", "-o", directory.file("a.lifetrace"),
        ])
        #expect(styled.status != 0 && styled.stderr.contains("apply to app scenarios"))
        let slowed = try CommandLineTool.run([
            "simulate", "--scenario", "slow-drain", "--slow", "scene.didEnterBackground=2",
            "-o", directory.file("b.lifetrace"),
        ])
        #expect(slowed.status != 0 && slowed.stderr.contains("service.shutdown or service.ready"))
        let listed = try CommandLineTool.run(["simulate", "--list"])
        for scenario in ["rolling-deploy", "slow-drain", "crash-loop", "shutdown-overrun"] {
            #expect(listed.stdout.contains("  \(scenario) "))
        }
    }

    /// A service row per service and process, its durations read off the events of the trace's dump.
    @Test func summarizeWritesAServiceRowPerServiceAndProcess() throws {
        let trace = directory.file("deploy.jsonl")
        _ = try CommandLineTool.run(["simulate", "--scenario", "rolling-deploy", "--seed", "4", "-o", trace])
        let events = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").dropFirst().map(
            Self.object)
        func times(_ kind: String, _ service: String) -> [Int64] {
            events.filter { $0["ev"] as? String == kind && $0["scene"] as? String == service }.map {
                ($0["t"] as! NSNumber).int64Value
            }
        }
        let output = directory.file("rows.jsonl")
        let summarized = try CommandLineTool.run(["summarize", trace, "-o", output])
        #expect(summarized.status == 0, "\(summarized.stderr)")
        let rows = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").map(Self.object)
            .filter { $0["row"] as? String == "service" }
        #expect(rows.count == 6)
        for service in ["http", "worker"] {
            let (starts, ready) = (times("service.start", service), times("service.ready", service))
            let (asked, stopped) = (times("service.shutdown", service), times("service.stopped", service))
            let mine = rows.filter { $0["service"] as? String == service }
            #expect(mine.map { ($0["process"] as! NSNumber).intValue } == [1, 2, 3])
            #expect(mine.map { ($0["ready_ns"] as! NSNumber).int64Value } == zip(ready, starts).map { $0 - $1 })
            #expect(mine.map { ($0["shutdown_ns"] as! NSNumber).int64Value } == zip(stopped, asked).map { $0 - $1 })
            #expect(mine.allSatisfy { $0["stopped"] as? Bool == true && $0["cancelled"] as? Bool == false })
        }
    }

    /// Rolling deploys of a build whose drains take 1.5 times as long regress the shutdown metric of the worker;
    /// a build drawn from the same model does not regress. (Sixty runs of simulate: the integration tier.)
    @Test(.integration) func compareGatesASlowerShutdown() throws {
        func runs(_ name: String, firstSeed: Int, _ extra: [String] = []) throws -> String {
            let folder = directory.file(name)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for seed in firstSeed..<(firstSeed + 20) {
                let result = try CommandLineTool.run(
                    [
                        "simulate", "--scenario", "rolling-deploy", "--seed", String(seed),
                        "--build", name, "-o", "\(folder)/run-\(seed).lifetrace",
                    ] + extra)
                try #require(result.status == 0, "\(result.stderr)")
            }
            return folder
        }
        let base = try runs("base", firstSeed: 1)
        let same = try runs("same", firstSeed: 501)
        let slower = try runs("slower", firstSeed: 1001, ["--slow", "service.shutdown=1.5"])
        let regressed = try CommandLineTool.run(["compare", "--base", base, "--new", slower, "--format", "markdown"])
        #expect(regressed.status == 1, "\(regressed.stdout)\(regressed.stderr)")
        let line = try #require(regressed.stdout.split(separator: "\n").first { $0.contains("shutdown ` worker `") })
        #expect(line.contains("**regression**"), "\(regressed.stdout)")
        let unchanged = try CommandLineTool.run(["compare", "--base", base, "--new", same])
        #expect(unchanged.status == 0, "\(unchanged.stdout)")
        #expect(unchanged.stdout.contains("shutdown worker"))
        #expect(unchanged.stdout.contains("no regression: 20 base traces, 20 new"))
    }
}
