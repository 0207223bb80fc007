import Foundation
import LifetraceCore
import LifetraceFormat
import LifetraceTestSupport
import Testing

/// The summaries where teams take them: the DuckDB queries docs/many-traces.md documents, and the Spark job, whose
/// aggregates must equal `compare`'s exactly.
@Suite(.serialized, .integration) struct WarehouseTests {
    let directory = TemporaryDirectory()

    /// Writes a simulated run to `path`.
    static func simulate(
        _ configuration: Simulator.Configuration, header extra: [(TraceHeader.Key, String)] = [], to path: String
    ) throws {
        let simulator = Simulator(configuration: configuration)
        var header = simulator.header
        for (key, value) in extra { header[key] = .string(value) }
        let writer = try makeEventWriter(path: path, header: header)
        try simulator.run { try writer.append($0) }
        try writer.close()
    }

    /// Runs of two builds on two OS versions for two tests, half of them leaking a background task.
    func fleet() throws -> String {
        let folder = directory.file("fleet")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var seed: UInt64 = 0
        for build in ["416", "417"] {
            for os in ["iOS 17.5", "iOS 18.2"] {
                for test in ["testUpload", "testLogin"] {
                    seed += 1
                    let metadata: [(TraceHeader.Key, String)] = [(.build, build), (.osVersion, os), (.testName, test)]
                    try Self.simulate(
                        .init(scenario: .random, seed: seed, minimumEvents: 300), header: metadata,
                        to: "\(folder)/run-\(seed).lifetrace")
                    try Self.simulate(
                        .init(scenario: .backgroundTask, seed: seed, faults: [.leakedBackgroundTask]),
                        header: metadata, to: "\(folder)/leak-\(seed).lifetrace")
                }
            }
        }
        return folder
    }

    /// The output of the Spark job (scripts/spark/lifetrace_job.py) in local mode over the traces of `base` and
    /// `new`, written to `output`.
    static func spark(base: String, new: String, output: String) throws -> [String: Any] {
        let python = try #require(which("python3"))
        let spark = try run(
            python,
            [
                PackagePaths.path("scripts/spark/lifetrace_job.py"), "--master", "local[2]",
                "--lifetrace", CommandLineTool.path, "--base", base, "--new", new, "-o", output,
            ])
        try #require(spark.status == 0, "\(spark.stderr.suffix(2000))")
        return try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as! [String: Any]
    }

    /// The metrics of the Spark job's or `compare --format json`'s output, by name.
    static func metrics(_ output: [String: Any]) -> [String: [String: Any]] {
        Dictionary(uniqueKeysWithValues: (output["metrics"] as! [[String: Any]]).map { ($0["metric"] as! String, $0) })
    }

    /// Each query of Examples/duckdb, as docs/many-traces.md shows it, gives what the rows say, computed here without SQL.
    @Test func theDocumentedDuckDBQueriesAnswerFromTheRows() throws {
        let summary = directory.file("summary.jsonl")
        let result = try CommandLineTool.run(["summarize", try fleet(), "-o", summary])
        try #require(result.status == 0, "\(result.stderr)")
        let guide = try String(contentsOfFile: PackagePaths.path("docs/many-traces.md"), encoding: .utf8)
        let queries = PackagePaths.path("Examples/duckdb")
        for name in [
            "slowest-did-enter-background-by-build", "leaked-tasks-per-test", "background-time-per-os-version",
        ] {
            let sql = try String(contentsOfFile: "\(queries)/\(name).sql", encoding: .utf8)
            #expect(
                guide.contains(sql.split(separator: "\n").filter { !$0.hasPrefix("--") }.joined(separator: "\n")),
                "docs/many-traces.md shows \(name).sql")
        }
        let python = try #require(which("python3"))
        let check = try run(
            python,
            [
                "-c",
                #"""
                import collections, duckdb, json, math, os, sys
                os.chdir(sys.argv[1])
                rows = [json.loads(line) for line in open("summary.jsonl")]
                def query(name):
                    return [tuple(r) for r in duckdb.sql(open(os.path.join(sys.argv[2], name + ".sql")).read()).fetchall()]
                def quantile(values, p):
                    values = sorted(values); position = (len(values) - 1) * p; low = math.floor(position)
                    high = min(low + 1, len(values) - 1)
                    return values[low] + (position - low) * (values[high] - values[low])
                by_build = collections.defaultdict(list); longest = collections.defaultdict(int)
                for r in rows:
                    if r["row"] == "handler" and r["handler"] == "scene.didEnterBackground":
                        by_build[r["build"]].append(r["mean_ns"]); longest[r["build"]] = max(longest[r["build"]], r["max_ns"])
                expected = sorted(((b, len(v), round(quantile(v, .5) / 1e6, 1), round(quantile(v, .9) / 1e6, 1), round(longest[b] / 1e6, 1))
                                   for b, v in by_build.items()), key=lambda t: -t[3])
                assert query("slowest-did-enter-background-by-build") == expected, (query("slowest-did-enter-background-by-build"), expected)
                leaked = collections.Counter(); runs = collections.defaultdict(set)
                for r in rows:
                    if r["row"] == "task" and not r["ended"]:
                        leaked[r["test_name"]] += 1; runs[r["test_name"]].add(r["trace"])
                expected = sorted(((t, n, len(runs[t])) for t, n in leaked.items()), key=lambda t: (-t[1], t[0]))
                assert expected and query("leaked-tasks-per-test") == expected, (query("leaked-tasks-per-test"), expected)
                background = collections.defaultdict(list)
                for r in rows:
                    if r["row"] == "trace": background[r["os_version"]].append(r["background_ns"])
                expected = [(o, len(v), round(sum(v) / 1e9, 3), round(sum(v) / len(v) / 1e9, 3)) for o, v in sorted(background.items())]
                assert query("background-time-per-os-version") == expected, (query("background-time-per-os-version"), expected)
                print("ok")
                """#, directory.path, queries,
            ])
        #expect(check.status == 0 && check.stdout.contains("ok"), "\(check.stderr)")
    }

    /// About a thousand runs, split between a base build and a slower one: the Spark job in local mode prints
    /// exactly the distributions `compare --format json` prints.
    @Test func theSparkJobAgreesWithCompareExactly() throws {
        let base = directory.file("spark-base")
        let new = directory.file("spark-new")
        for (folder, first, slowed) in [(base, UInt64(1), nil), (new, UInt64(10_001), 1.3)]
            as [(String, UInt64, Double?)]
        {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for seed in first..<(first + 500) {
                try Self.simulate(
                    .init(
                        scenario: .random, seed: seed, minimumEvents: 200,
                        slowedHandlers: slowed.map { [.sceneDidEnterBackground: $0] } ?? [:]),
                    to: "\(folder)/run-\(seed).lifetrace")
            }
        }
        let compare = try CommandLineTool.run(["compare", "--base", base, "--new", new, "--format", "json"])
        #expect(compare.status == 1, "the slower build regressed: \(compare.stderr)")
        let fromSpark = try Self.spark(base: base, new: new, output: directory.file("spark.json"))
        let fromCompare = try JSONSerialization.jsonObject(with: Data(compare.stdout.utf8)) as! [String: Any]
        #expect((fromSpark["traces"] as? [String: Int]) == ["base": 500, "new": 500])
        let sparkMetrics = Self.metrics(fromSpark)
        let compared = fromCompare["metrics"] as! [[String: Any]]
        #expect(compared.count == sparkMetrics.count && compared.count > 15)
        let empty: [String: Any] = ["count": 0, "p50": NSNull(), "p90": NSNull(), "p99": NSNull()]
        for metric in compared {
            let name = metric["metric"] as! String
            let other = try #require(sparkMetrics[name], "Spark has \(name)")
            for side in ["base", "new"] {
                let ours = metric[side] as! [String: Any]
                let theirs = other[side] as? [String: Any] ?? empty
                for key in ["count", "p50", "p90", "p99"] {
                    #expect(
                        String(describing: ours[key]!) == String(describing: theirs[key]!), "\(name) \(side) \(key)")
                }
            }
        }
    }
}
