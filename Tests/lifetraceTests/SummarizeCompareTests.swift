import Foundation
import LifetraceTestSupport
import SystemPackage
import Testing

/// `summarize` and `compare` as a CI job runs them.
@Suite struct SummarizeCompareTests {
    let directory = TemporaryDirectory()

    /// Simulated runs of one build into `name/`, from `firstSeed`, with `extra` simulate arguments.
    func runs(_ name: String, count: Int, firstSeed: Int, _ extra: [String] = []) throws -> String {
        let folder = directory.file(name)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for seed in firstSeed..<(firstSeed + count) {
            let result = try CommandLineTool.run(
                [
                    "simulate", "--scenario", "random", "--events", "300", "--seed", String(seed),
                    "--build", name, "-o", "\(folder)/run-\(seed).lifetrace",
                ] + extra)
            try #require(result.status == 0, "\(result.stderr)")
        }
        return folder
    }

    /// Every row of a directory of samples, a simulated build and a damaged file is valid against
    /// Schemas/summary.schema.json; the damaged file gives an error row and exit 2, and the rest go on.
    @Test(.integration) func everyRowFollowsTheSchema() throws {
        let build = try runs("417", count: 3, firstSeed: 1)
        let damaged = directory.write("damaged.lifetrace", Array("{\"lifetrace\":1}\n{\"t\":5,\"ev\":\"nope\"}\n".utf8))
        let output = directory.file("rows.jsonl")
        let result = try CommandLineTool.run([
            "summarize", PackagePaths.path("SampleTraces"), build, damaged, "-o", output,
        ])
        #expect(result.status == 2)
        // One line, naming the trace that could not be read.
        #expect(result.stderr.hasPrefix("error: \(damaged):"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix(" (1 trace could not be read: see their error rows)\n"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        let kinds = Set(
            lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.compactMap {
                $0["row"] as? String
            })
        #expect(kinds == ["trace", "process", "handler", "task", "finding", "error"])
        #expect(lines.last?.contains("\"row\":\"error\"") == true && lines.last?.contains("damaged.lifetrace") == true)
        #expect(lines.contains { $0.contains("\"build\":\"417\"") && $0.contains("\"row\":\"trace\"") })
        let python = try #require(which("python3"))
        let validate = try run(
            python,
            [
                "-c",
                """
                import json, sys, jsonschema
                schema = json.load(open(sys.argv[1]))
                validator = jsonschema.Draft202012Validator(schema)
                count = 0
                for number, line in enumerate(open(sys.argv[2]), 1):
                    errors = list(validator.iter_errors(json.loads(line)))
                    if errors:
                        sys.exit(f"line {number}: {errors[0].message}")
                    count += 1
                print(count)
                """, PackagePaths.path("Schemas/summary.schema.json"), output,
            ])
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(Int(validate.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == lines.count)
    }

    @Test func compareFailsOnASlowerBuildAndPassesAnUnchangedOne() throws {
        let base = try runs("base", count: 30, firstSeed: 1)
        let same = try runs("same", count: 30, firstSeed: 501)
        let slower = try runs("slower", count: 30, firstSeed: 1001, ["--slow", "scene.didEnterBackground=1.5"])
        let regressed = try CommandLineTool.run(["compare", "--base", base, "--new", slower, "--format", "markdown"])
        #expect(regressed.status == 1, "\(regressed.stdout)\(regressed.stderr)")
        #expect(regressed.stdout.contains("| **handler ` scene.didEnterBackground `** |"))
        #expect(regressed.stdout.contains("**regression**"))
        let unchanged = try CommandLineTool.run(["compare", "--base", base, "--new", same])
        #expect(unchanged.status == 0, "\(unchanged.stdout)")
        #expect(unchanged.stdout.contains("no regression: 30 base traces, 30 new"))
        // Summaries compare as the traces do.
        let summary = directory.file("base.jsonl")
        _ = try CommandLineTool.run(["summarize", base, "-o", summary])
        let fromSummary = try CommandLineTool.run([
            "compare", "--base", summary, "--new", slower, "--format", "markdown",
        ])
        #expect(fromSummary.stdout == regressed.stdout)
    }

    /// `summarize` fails closed too: a directory with no trace, or an empty list, writes no rows and exits 2 with one
    /// line; no output file is left that would pass for a clean run.
    @Test func summarizeOfNoTraceIsAnError() throws {
        let empty = directory.file("no-traces")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        _ = directory.write("no-traces/run.jsonl", text: "{\"t\":0,\"ev\":\"heartbeat\"}\n")
        let output = directory.file("rows.jsonl")
        let result = try CommandLineTool.run(["summarize", empty, "-o", output])
        #expect(result.status == 2)
        #expect(
            result.stderr == "error: \(empty): no trace to summarize: a directory is walked for *.lifetrace files\n")
        #expect(!FileManager.default.fileExists(atPath: output))
        let listed = try CommandLineTool.run(["summarize", "--files-from", "-"], input: "")
        #expect(listed.status == 2)
        #expect(listed.stdout.isEmpty)
        #expect(
            listed.stderr
                == "error: --files-from -: no trace to summarize: a directory is walked for *.lifetrace files\n")
    }

    @Test func compareNeedsBothSides() throws {
        let result = try CommandLineTool.run(["compare", "--base", PackagePaths.path("SampleTraces")])
        #expect(result.status == 2 && result.stderr.contains("give both --base and --new"))
    }

    /// A file whose first line is a JSON object that is neither a summary row nor a trace's header or event (`{}`
    /// before summary rows) is refused on either side with one line naming the file and line 1 and saying what
    /// was expected, not read as a trace that lacks a `t`.
    @Test func compareRefusesAFileThatIsNeitherASummaryNorATrace() throws {
        let trace = directory.file("good.lifetrace")
        try #require(
            try CommandLineTool.run(["simulate", "--scenario", "background-and-return", "-o", trace]).status == 0)
        let rows = try CommandLineTool.run(["summarize", trace]).stdout
        for first in ["{}", #"{"ev":"launch","row":"trace"}"#] {
            let neither = directory.write("neither.jsonl", text: first + "\n" + rows)
            for arguments in [["--base", trace, "--new", neither], ["--base", neither, "--new", trace]] {
                let result = try CommandLineTool.run(["compare"] + arguments)
                #expect(result.status == 2)
                #expect(result.stdout.isEmpty)
                #expect(
                    result.stderr
                        == "error: \(neither):1: neither a summary row (no \"summary_version\") nor a trace's "
                        + "header (\"lifetrace\") or event (\"t\"): compare takes traces and summarize's output\n")
            }
        }
    }

    /// A pipe (`<(cat trace)`) is read once, as the trace it is: the whole trace, not what a look at its first line
    /// left of it (which read as a trace with no event and passed). A summary through a pipe fails closed, saying
    /// what it is; standard input redirected from a summary file is read as one. A FIFO is opened by its reader
    /// alone: a look that opened it first would take its writer's bytes and leave the reader waiting for ever.
    @Test func comparePipesAndStandardInput() throws {
        let trace = PackagePaths.path("SampleTraces/fault-leaked-background-task.lifetrace")
        let summary = directory.file("rows.jsonl")
        try #require(try CommandLineTool.run(["summarize", trace, "-o", summary]).status == 0)
        let direct = try CommandLineTool.run(["compare", "--base", trace, "--new", trace, "--format", "json"])
        try #require(direct.status == 0, "\(direct.stderr)")
        // `<(cat file)`: a pipe named /dev/fd/N, filled as the command reads it.
        let traceBytes = try Array(Data(contentsOf: URL(fileURLWithPath: trace)))
        let piped = try withPipe(traceBytes) {
            try CommandLineTool.run(["compare", "--base", $0, "--new", trace, "--format", "json"])
        }
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout == direct.stdout)
        let pipedSummary = try withPipe(Array(Data(contentsOf: URL(fileURLWithPath: summary)))) {
            try CommandLineTool.run(["compare", "--base", $0, "--new", trace])
        }
        #expect(pipedSummary.status == 2)
        #expect(pipedSummary.stdout.isEmpty)
        #expect(pipedSummary.stderr.hasPrefix("error: /dev/fd/"), "\(pipedSummary.stderr)")
        #expect(pipedSummary.stderr.contains(":1: a summary row (summarize's output), not a trace's event (column 2) "))
        // `< file`: standard input is the summary file itself.
        let summaryFile = try FileDescriptor.open(summary, .readOnly)
        defer { try? summaryFile.close() }
        let redirected = try CommandLineTool.run(
            ["compare", "--base", "-", "--new", trace, "--format", "json"], reading: summaryFile)
        #expect(redirected.status == 0, "\(redirected.stderr)")
        #expect(redirected.stdout == direct.stdout)
        let fifo = directory.file("fifo.lifetrace")
        try #require(try run("/usr/bin/mkfifo", [fifo]).status == 0)
        // The writer, as `cat trace > fifo &`: its open waits for the reader's.
        Thread {
            guard let writer = try? FileDescriptor.open(fifo, .writeOnly) else { return }
            _ = try? traceBytes.withUnsafeBytes { try writer.writeAll($0) }
            try? writer.close()
        }.start()
        let fromFIFO = try #require(
            try CommandLineTool.run(
                ["compare", "--base", fifo, "--new", trace, "--format", "json"], returningWithin: 60), "a hang")
        #expect(fromFIFO.status == 0, "\(fromFIFO.stderr)")
        #expect(fromFIFO.stdout == direct.stdout)
    }
}
