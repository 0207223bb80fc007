import Foundation
import LifetraceCore
import LifetraceFormat
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// The second set of reproducers (Fixtures/Repros/SOURCE.md, N1–N18): inputs that broke a promise when tried
/// as a hostile or unlucky user would. Each ends as docs/reliability.md promises: no signal, a documented exit status,
/// one line naming the input for bad input, nothing lost unsaid, bounded memory and time.
extension ReliabilityTests {
    /// Runs `script` with bash, the tool's path in `$L`.
    func shell(_ script: String) throws -> ShellResult {
        try run("/bin/bash", ["-c", "L='\(CommandLineTool.path)'; cd '\(directory.path)'; " + script])
    }

    /// The standard error of a failing command is one line naming `file` (anywhere in it), without control
    /// characters.
    func expectOneLine(
        _ result: ShellResult, mentioning file: String, _ fragments: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("error: "), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(file), "\(result.stderr)", sourceLocation: sourceLocation)
        for fragment in fragments {
            #expect(result.stderr.contains(fragment), "\(result.stderr)", sourceLocation: sourceLocation)
        }
        #expect(
            !result.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, sourceLocation: sourceLocation)
    }

    /// A simulated trace of `events` events (the random walk), written by the tool.
    func walk(_ name: String, events: Int) throws -> String {
        let path = directory.file(name)
        let result = try CommandLineTool.run([
            "simulate", "--scenario", "random", "--events", String(events), "--seed", "42", "-o", path,
        ])
        try #require(result.status == 0, "\(result.stderr)")
        return path
    }

    /// One process that begins `count` background tasks and never ends them, in frames of 2^18 events.
    func openTasks(_ count: Int) throws -> String {
        let path = directory.file("open_tasks_\(count).lifetrace")
        let writer = try makeEventWriter(
            path: path, header: TraceHeader(clock: .continuous, app: "com.example.crafted"),
            jsonLines: false, options: .zstd)
        try writer.append(LifecycleEvent(t: 0, kind: .processLaunch, reason: "user", pid: 1))
        for task in 0..<Int64(count) { try writer.append(LifecycleEvent(t: 1 + task, kind: .taskBegin, task: task)) }
        try writer.close()
        return path
    }

    // MARK: - N1, N2: no trap

    @Test(.integration) func recoverDropsABlockThatClaimsMoreThanItsFrameHolds() throws {
        let out = directory.file("recovered.lifetrace")
        let (result, peak) = try measured(["recover", Self.repro("recover_block_size_sigill.lifetrace"), out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("dropped frame 1 at byte 201"), "\(result.stdout)")
        #expect(result.stdout.contains("raw block of 100000 bytes is larger than"), "\(result.stdout)")
        #expect(peak < 128)
        #expect(try CommandLineTool.run(["check", out]).status < 2)
    }

    @Test func comparePercentilesOfTheLargestDurationsDoNotTrap() throws {
        let result = try CommandLineTool.run([
            "compare", "--base", Self.repro("compare_int64max_base.sum.jsonl"),
            "--new", Self.repro("compare_int64max_new.sum.jsonl"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("state active"))
        for format in ["json", "markdown"] {
            #expect(
                try CommandLineTool.run([
                    "compare", "--format", format, "--base", Self.repro("compare_int64max_base.sum.jsonl"),
                    "--new", Self.repro("compare_int64max_new.sum.jsonl"),
                ]).status == 0)
        }
    }

    // MARK: - N3: the gate fails closed

    @Test func compareFailsClosedOnASideItCouldNotRead() throws {
        let good = directory.file("good.lifetrace")
        try #require(
            try CommandLineTool.run(["simulate", "--scenario", "background-and-return", "-o", good]).status == 0)
        let empty = directory.file("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let summary = try CommandLineTool.run(["summarize", good]).stdout
        let next = summary.split(separator: "\n").count + 1
        let bom = directory.write("bom.sum.jsonl", [0xEF, 0xBB, 0xBF] + Array(summary.utf8))
        let object = directory.write("object.sum.jsonl", text: summary + "{}\n")
        let null = directory.write("null.sum.jsonl", text: summary + "null\n")
        let version = directory.write(
            "version.sum.jsonl",
            text: summary.replacingOccurrences(of: "\"summary_version\":1", with: "\"summary_version\":9"))
        let cases: [(String, [String])] = [
            (
                "/nonexistent/x.lifetrace",
                ["/nonexistent/x.lifetrace: cannot open", "1 trace of --new could not be read"]
            ),
            ("/dev/zero", ["/dev/zero: byte 0: not a lifetrace trace"]),
            ("", ["--new: an empty path"]),
            (empty, [empty + ": no trace to compare (--new)"]),
            (bom, [bom + ":1: starts with a byte-order mark"]),
            (object, [object + ":\(next): not a summary row: no summary_version"]),
            (null, [null + ":\(next): not a summary row: null"]),
            (version, [version + ":1: summary_version 9 is not 1"]),
            (directory.write("neither.jsonl", text: "{}\n" + summary), ["neither.jsonl:1: neither a summary row"]),
        ]
        for (new, fragments) in cases {
            let result = try CommandLineTool.run(["compare", "--base", good, "--new", new])
            #expect(result.status == 2, "--new '\(new)': \(result.stdout)")
            expectOneLine(result, mentioning: fragments[0], Array(fragments.dropFirst()))
            #expect(!result.stdout.contains("no regression"))
        }
        let config = directory.write("bad.json", text: "{\"budgets\":{\"launch\":\"bogus\"}}")
        let invalid = try CommandLineTool.run(["compare", "--base", good, "--new", good, "--config", config])
        #expect(invalid.status == 2)
        expectOneLine(invalid, mentioning: config + ": budget \"launch\": \"bogus\" is not a duration")
    }
}
