import Foundation
import LifetraceCore
import LifetraceFormat
import LifetraceTestSupport
import Testing

/// Simulated service processes through `summarize` into the warehouses the docs give: the DuckDB query of
/// service shutdowns and the Spark job answer with the drain times of the simulated events themselves, and
/// `compare` gates the build whose drains got slower.
@Suite(.serialized, .integration) struct ServiceWarehouseTests {
    let directory = TemporaryDirectory()

    /// The shutdown durations of one trace's events, per service in order of each process: from a service's first
    /// `service.shutdown` in a process to its first `service.stopped` after it.
    static func drains(_ events: [LifecycleEvent]) -> [(service: String, nanoseconds: Int64)] {
        var drains: [(String, Int64)] = []
        var asked: [String: Int64] = [:]
        var done: Set<String> = []
        var alive = false
        for event in events {
            if event.kind == .processLaunch || !alive { (asked, done, alive) = ([:], [], true) }
            if event.kind == .processExit { alive = false }
            guard let name = event.scene, !done.contains(name) else { continue }
            if event.kind == .serviceShutdown, asked[name] == nil { asked[name] = event.t }
            if event.kind == .serviceStopped {
                done.insert(name)
                if let start = asked[name] { drains.append((name, event.t - start)) }
            }
        }
        return drains
    }

    /// Writes `count` simulated rolling deploys of `build` into `folder`, their drains `drain` times as long;
    /// returns each trace's drains.
    func deploys(_ build: String, count: Int, firstSeed: UInt64, drain: Double, into folder: String) throws
        -> [[(service: String, nanoseconds: Int64)]]
    {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var all: [[(service: String, nanoseconds: Int64)]] = []
        for seed in firstSeed..<(firstSeed + UInt64(count)) {
            let simulator = ServiceSimulator(
                configuration: .init(scenario: .rollingDeploy, seed: seed, drainFactor: drain))
            var header = simulator.header
            header[.build] = .string(build)
            let writer = try makeEventWriter(path: "\(folder)/deploy-\(seed).lifetrace", header: header)
            var events: [LifecycleEvent] = []
            try simulator.run { event in
                events.append(event)
                try writer.append(event)
            }
            try writer.close()
            all.append(Self.drains(events))
        }
        return all
    }

    /// Two builds' deploys summarized into one file: the documented DuckDB query gives, per build and service, the
    /// count, median, 90th percentile and longest of the drains the simulator wrote.
    @Test func theServiceShutdownQueryAnswersWithTheSimulatedDrains() throws {
        let folder = directory.file("fleet")
        var truth: [[Any]] = []
        for (build, drain, seed) in [("416", 1.0, UInt64(1)), ("417", 1.5, UInt64(101))] {
            for trace in try deploys(build, count: 12, firstSeed: seed, drain: drain, into: folder) {
                truth += trace.map { [build, $0.service, $0.nanoseconds] }
            }
        }
        #expect(truth.count == 2 * 12 * 6, "rolling deploys: three processes of two services each")
        try JSONSerialization.data(withJSONObject: truth).write(to: URL(fileURLWithPath: directory.file("truth.json")))
        let summarized = try CommandLineTool.run(["summarize", folder, "-o", directory.file("summary.jsonl")])
        try #require(summarized.status == 0, "\(summarized.stderr)")
        let sql = try String(
            contentsOfFile: PackagePaths.path("Examples/duckdb/service-shutdown-by-build.sql"), encoding: .utf8)
        let guide = try String(contentsOfFile: PackagePaths.path("docs/many-traces.md"), encoding: .utf8)
        #expect(
            guide.contains(sql.split(separator: "\n").filter { !$0.hasPrefix("--") }.joined(separator: "\n")),
            "docs/many-traces.md shows the query")
        let python = try #require(which("python3"))
        let check = try run(
            python,
            [
                "-c",
                #"""
                import collections, duckdb, json, math, os, sys
                os.chdir(sys.argv[1])
                def quantile(values, p):
                    values = sorted(values); position = (len(values) - 1) * p; low = math.floor(position)
                    high = min(low + 1, len(values) - 1)
                    return values[low] + (position - low) * (values[high] - values[low])
                drains = collections.defaultdict(list)
                for build, service, ns in json.load(open("truth.json")):
                    drains[(build, service)].append(ns)
                expected = [(b, s, len(v), round(quantile(v, .5) / 1e6, 1), round(quantile(v, .9) / 1e6, 1), round(max(v) / 1e6, 1))
                            for (b, s), v in sorted(drains.items())]
                got = [tuple(r) for r in duckdb.sql(open(sys.argv[2]).read()).fetchall()]
                assert got == expected, (got, expected)
                slower = {s: quantile(drains[("417", s)], .5) / quantile(drains[("416", s)], .5) for b, s in drains}
                assert all(r > 1.2 for r in slower.values()), slower
                print("ok")
                """#, directory.path, PackagePaths.path("Examples/duckdb/service-shutdown-by-build.sql"),
            ])
        #expect(check.status == 0 && check.stdout.contains("ok"), "\(check.stdout)\(check.stderr)")
    }

    /// Twenty deploys a build, the new one's drains 1.5 times as long: `compare` fails on `shutdown worker`, the
    /// Spark job prints the same distributions to the last digit, and both medians are those of the per-trace
    /// mean drains of the simulated events (integer division, then Spark's percentile, computed here by hand).
    @Test func theSparkJobAndCompareGateASlowerDrainWithTheSimulatedDrains() throws {
        let base = directory.file("base")
        let new = directory.file("new")
        let baseDrains = try deploys("416", count: 20, firstSeed: 1, drain: 1, into: base)
        let newDrains = try deploys("417", count: 20, firstSeed: 1001, drain: 1.5, into: new)
        let compare = try CommandLineTool.run(["compare", "--base", base, "--new", new, "--format", "json"])
        #expect(compare.status == 1, "a slower drain is a regression: \(compare.stdout)\(compare.stderr)")
        let compared = try #require(try JSONSerialization.jsonObject(with: Data(compare.stdout.utf8)) as? [String: Any])
        let metrics = WarehouseTests.metrics(compared)
        for service in ["http", "worker"] {
            for (side, drains) in [("base", baseDrains), ("new", newDrains)] {
                // A trace whose service never stopped after its request (killed mid-drain) gives no observation.
                let means = drains.compactMap { trace -> Int64? in
                    let mine = trace.filter { $0.service == service }.map(\.nanoseconds)
                    return mine.isEmpty ? nil : mine.reduce(0, +) / Int64(mine.count)
                }.sorted()
                try #require(means.count >= 10)
                // Spark's percentile at 0.5: the value at position (n - 1) / 2, interpolated between its neighbours.
                let position = Double(means.count - 1) * 0.5
                let (low, high) = (Int(position.rounded(.down)), Int(position.rounded(.up)))
                let median = Double(means[low]) + (position - Double(low)) * Double(means[high] - means[low])
                let distribution = try #require(metrics["shutdown \(service)"]?[side] as? [String: Any])
                #expect((distribution["count"] as? NSNumber)?.intValue == means.count)
                #expect((distribution["p50"] as? NSNumber)?.doubleValue == median, "shutdown \(service) \(side)")
            }
        }
        #expect(metrics["shutdown worker"]?["verdict"] as? String == "regression")
        let sparkMetrics = WarehouseTests.metrics(
            try WarehouseTests.spark(base: base, new: new, output: directory.file("spark.json")))
        #expect(Set(sparkMetrics.keys) == Set(metrics.keys))
        for name in ["shutdown http", "shutdown worker", "readiness http", "readiness worker"] {
            for side in ["base", "new"] {
                let ours = try #require(metrics[name]?[side] as? [String: Any])
                let theirs = try #require(sparkMetrics[name]?[side] as? [String: Any], "Spark has \(name)")
                for key in ["count", "p50", "p90", "p99"] {
                    #expect(
                        String(describing: ours[key]!) == String(describing: theirs[key]!), "\(name) \(side) \(key)")
                }
            }
        }
    }
}
