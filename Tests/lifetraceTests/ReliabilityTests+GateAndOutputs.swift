import Foundation
import LifetraceTestSupport
import Testing

/// The third set of reproducers, continued (Fixtures/Repros/SOURCE.md): the gate on numbers it cannot have read
/// right, one verdict for one file, and outputs that stay the user's.
extension ReliabilityTests {
    /// A JSON Lines trace: the header, then `events` (each a JSON object's text).
    func jsonTrace(
        _ name: String,
        header: String =
            #"{"lifetrace":1,"clock":"continuous","start_unix_ns":1763700000000000000,"app":"com.example.App","scene_manifest":false}"#,
        _ events: [String]
    ) -> String {
        directory.write(name, text: ([header] + events).joined(separator: "\n") + "\n")
    }

    // MARK: - P4: the gate passes only on what it read right

    @Test func tasksSummingPast63BitsReadAsTheRegressionTheyAre() throws {
        // Per trace, two overlapping tasks of the same length: its mean is that length, 4 s in the base and
        // 2^62 ns (146 years) in the new side, whose sum (2^63 and more) no Int64 holds.
        for (side, length) in [("base", Int64(4_000_000_000)), ("new", Int64(1) << 62)] {
            try FileManager.default.createDirectory(atPath: directory.file(side), withIntermediateDirectories: true)
            for index in 0..<6 {
                let d = length + Int64(index) * 1000
                _ = jsonTrace(
                    "\(side)/r\(index).lifetrace",
                    [
                        #"{"t":0,"ev":"process.launch","reason":"user","pid":1}"#,
                        #"{"t":1,"ev":"task.begin","task":1,"name":"a"}"#,
                        #"{"t":2,"ev":"task.begin","task":2,"name":"b"}"#,
                        #"{"t":\#(1 + d),"ev":"task.end","task":1}"#, #"{"t":\#(2 + d),"ev":"task.end","task":2}"#,
                    ])
            }
        }
        let result = try CommandLineTool.run([
            "compare", "--base", directory.file("base"), "--new", directory.file("new"), "--format", "json",
        ])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let metrics = try #require(json["metrics"] as? [[String: Any]])
        let task = try #require(metrics.first { $0["metric"] as? String == "task background-task" })
        #expect(task["verdict"] as? String == "regression")
        // The new side's median: the third and fourth of 2^62 + 0, 1000, ..., 5000 ns, averaged.
        let p50 = try #require((task["new"] as? [String: Any])?["p50"] as? Double)
        #expect(p50 == Double((Int64(1) << 62) + 2500))
    }

    @Test func aNegativeDurationInASummaryFailsTheGateClosed() throws {
        let good = directory.file("good.lifetrace")
        try #require(
            try CommandLineTool.run(["simulate", "--scenario", "background-and-return", "-o", good]).status == 0)
        var rows = try CommandLineTool.run(["summarize", good]).stdout.split(separator: "\n").map(String.init)
        let row =
            #"{"summary_version":1,"row":"task","trace":"x.lifetrace","task_kind":"background-task","duration_ns":-5}"#
        rows.append(row)
        let file = directory.write("negative.sum.jsonl", text: rows.joined(separator: "\n") + "\n")
        let result = try CommandLineTool.run(["compare", "--base", good, "--new", file])
        #expect(result.status == 2)
        expectOneLine(
            result,
            mentioning:
                "\(file):\(rows.count): an impossible summary row: \"duration_ns\" is -5: no duration or count is negative"
        )
        #expect(!result.stdout.contains("no regression"))
    }

    // MARK: - P6, P10: one file, one verdict

    @Test func dumpAcceptsTheDerivedTraceEveryOtherCommandAccepts() throws {
        let repro = Self.repro("dump_derived_dropped.jsonl")
        for arguments in [
            ["check"], ["info"], ["summarize"], ["report"], ["convert"], ["export", "-o", directory.file("x.json")],
        ] {
            let tail = arguments[0] == "convert" ? [repro, directory.file("c.jsonl")] : [repro]
            let result = try CommandLineTool.run(arguments + tail)
            #expect(result.status < 2, "\(arguments): \(result.stderr)")
        }
        let dump = try CommandLineTool.run(["dump", repro])
        #expect(dump.status == 0, "\(dump.stderr)")
        // The header and events as written, but for `log_line`, which dump shows only with --provenance: the
        // event that needs attributes (recorder.dropped) keeps the one it has.
        let lines = try String(contentsOfFile: repro, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(dump.stdout.split(separator: "\n").map(String.init) == lines)
    }

    @Test func aSummaryIsToldByItsContentWhateverItsFirstRowsLength() throws {
        let build = String(repeating: "n", count: 70_000)
        try FileManager.default.createDirectory(atPath: directory.file("b"), withIntermediateDirectories: true)
        for seed in 1...6 {
            let result = try CommandLineTool.run([
                "simulate", "--scenario", "random", "--events", "300", "--seed", String(seed),
                "--build", build, "-o", directory.file("b/r\(seed).lifetrace"),
            ])
            try #require(result.status == 0, "\(result.stderr)")
        }
        let summary = directory.file("s.jsonl")
        try #require(try CommandLineTool.run(["summarize", directory.file("b"), "-o", summary]).status == 0)
        let firstLine = try String(contentsOfFile: summary, encoding: .utf8).prefix { $0 != "\n" }
        #expect(firstLine.utf8.count > 65_536)
        let result = try CommandLineTool.run(["compare", "--base", summary, "--new", summary])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("no regression: 6 base traces, 6 new"), "\(result.stdout)")
    }

    // MARK: - P9: names in Markdown are text

    @Test func compareMarkdownShowsHostileNamesAsText() throws {
        let name =
            #"<img src="http://127.0.0.1:9/pixel.png"> @octocat [click](http://127.0.0.1:9/) **bold** `tick` a|b"#
        let scene = String(
            decoding: try JSONSerialization.data(withJSONObject: [name], options: [.withoutEscapingSlashes]),
            as: UTF8.self
        ).dropFirst().dropLast()
        for side in ["b", "n"] {
            try FileManager.default.createDirectory(atPath: directory.file(side), withIntermediateDirectories: true)
            for index in 0..<5 {
                _ = jsonTrace(
                    "\(side)/r\(index).lifetrace",
                    header: #"{"lifetrace":1,"clock":"continuous","app":"example-service","lifecycle":"service"}"#,
                    [
                        #"{"t":0,"ev":"process.launch","reason":"unknown","pid":\#(100 + index)}"#,
                        #"{"t":1000,"ev":"service.start","scene":\#(scene)}"#,
                        #"{"t":\#(2000 + index * 10),"ev":"service.ready","scene":\#(scene)}"#,
                        #"{"t":9000,"ev":"service.shutdown","scene":\#(scene)}"#,
                        #"{"t":9500,"ev":"service.stopped","scene":\#(scene)}"#,
                    ])
            }
        }
        let result = try CommandLineTool.run([
            "compare", "--base", directory.file("b"), "--new", directory.file("n"), "--format", "markdown",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        // A code span a backtick longer than the name's runs, padded by a space each side; the table's `|` escaped.
        let cell = "`` " + name.replacingOccurrences(of: "|", with: "\\|") + " ``"
        let rows = result.stdout.split(separator: "\n").filter {
            $0.hasPrefix("| readiness") || $0.hasPrefix("| shutdown")
        }
        #expect(rows.count == 2, "\(result.stdout)")
        for row in rows {
            #expect(row.hasPrefix("| readiness \(cell) |") || row.hasPrefix("| shutdown \(cell) |"), "\(row)")
        }
        // Outside the code spans, nothing of the name: no tag, link or mention to render.
        var outside = result.stdout
        outside = outside.replacingOccurrences(of: cell, with: "")
        for fragment in ["<img", "@octocat", "[click]", "**bold**"] {
            #expect(!outside.contains(fragment), "\(fragment)")
        }
    }

    // MARK: - P11: files stay the user's

    @Test func newOutputsTakeTheUmaskAndReplacedOnesKeepTheirMode() throws {
        let sample = PackagePaths.path("SampleTraces/seed-phone-call.lifetrace")
        let capture = directory.write(
            "capture.log",
            text:
                "2026-10-08 11:59:59.318 Df BareExample[31848:159e4] [com.example:lc] lifetrace ev=app.didFinishLaunching\n"
        )
        let commands = """
            umask 077
            "$L" simulate -o sim.lifetrace && "$L" report '\(sample)' -o report.html && "$L" export '\(sample)' -o export.pftrace
            "$L" summarize '\(sample)' -o summary.jsonl && "$L" convert '\(sample)' converted.jsonl
            "$L" recover '\(sample)' recovered.lifetrace >/dev/null
            "$L" import '\(capture)' -o imported.lifetrace --process BareExample 2>/dev/null
            "$L" dump '\(sample)' | "$L" record -o recorded.lifetrace 2>/dev/null
            touch kept.html && chmod 0640 kept.html && "$L" report '\(sample)' -o kept.html
            """
        let result = try shell(commands)
        #expect(result.status == 0, "\(result.stderr)")
        let made = [
            "sim.lifetrace", "report.html", "export.pftrace", "summary.jsonl", "converted.jsonl",
            "recovered.lifetrace", "imported.lifetrace", "recorded.lifetrace",
        ]
        for (name, mode) in made.map({ ($0, 0o600) }) + [("kept.html", 0o640)] {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory.file(name))
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == mode, "\(name)")
        }
    }

    // MARK: - P13: no output is an input

    @Test(arguments: ["report", "export", "summarize"])
    func anOutputThatIsTheConfigurationOrAModelIsRefused(command: String) throws {
        let sample = PackagePaths.path("SampleTraces/seed-phone-call.lifetrace")
        let config = directory.write("\(command).json", text: "{\"budgets\":{}}\n")
        let models = directory.file("models-\(command)")
        try FileManager.default.createDirectory(atPath: models, withIntermediateDirectories: true)
        let model = try String(contentsOfFile: PackagePaths.path("Schemas/models/app-ui.json"), encoding: .utf8)
        let modelFile = directory.write("models-\(command)/m.json", text: model)
        try FileManager.default.createSymbolicLink(
            atPath: directory.file("link-\(command).json"), withDestinationPath: config)
        let cases: [([String], String, String)] = [
            (["--config", config, "-o", config], config, config),
            (
                ["--config", config, "-o", directory.file("link-\(command).json")],
                directory.file("link-\(command).json"), config
            ),
            (["--models", models, "-o", modelFile], modelFile, modelFile),
        ]
        for (options, output, input) in cases {
            let before = try Data(contentsOf: URL(fileURLWithPath: input))
            let result = try CommandLineTool.run([command, sample] + options)
            #expect(result.status == 2, "\(options)")
            expectOneLine(result, mentioning: "\(output): is also an input")
            #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
        }
    }
}
