import Foundation
import LifetraceCore
import LifetraceFormat
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// The second set of reproducers, N4–N9: memory and time stay bounded, whatever the input's size.
extension ReliabilityTests {
    // MARK: - N4, N5, N6, N7, N9: memory and time

    /// 1,000,000 tasks begun and never ended: the analyzer follows the first 65,536 and counts the rest, an
    /// export draws at most 1,024 lanes of a track and the rest as instants, and summaries stream their rows.
    @Test(.integration) func openTasksWithoutEndTakeBoundedMemory() throws {
        let million = try openTasks(1_000_000)
        var checkPeak = 0.0
        for command in [["check", "--format", "json"], ["summarize", "-o", directory.file("s.jsonl")]] {
            let (result, peak) = try measured(command + [million])
            #expect(result.status < 2, "\(command): \(result.stderr)")
            #expect(peak < 128, "\(command) took \(peak) MiB")
            if command[0] == "check" {
                checkPeak = peak
                #expect(result.stdout.contains("934464 more tasks were begun while 65536 were open"))
            }
        }
        // An export keeps what its encoding thread has yet to write: its batches of calls and a copy of the blocks
        // they point into (the tasks' identifiers, their records left out), 18 MiB more than check in a release
        // build, 20 in a debug one. Copying the blocks whole took 33 MiB more.
        for format in ["perfetto", "chrome"] {
            let (result, peak) = try measured([
                "export", "--format", format, "-o", directory.file("m.\(format)"), million,
            ])
            #expect(result.status == 0, "\(format): \(result.stderr)")
            #expect(peak < checkPeak + 28, "export --format \(format) took \(peak) MiB, check \(checkPeak) MiB")
        }
        // Drawing every event takes long in a debug build: the report and the exports' stderr at a tenth of the tasks.
        let tenth = try openTasks(100_000)
        for command in [
            ["report", "-o", directory.file("r.html")],
            ["export", "--format", "chrome", "-o", directory.file("r.json")],
            ["export", "--format", "perfetto", "-o", directory.file("r.pftrace")],
        ] {
            let (result, peak) = try measured(command + [tenth])
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(peak < 128, "\(command) took \(peak) MiB")
            if command[0] == "export" {
                #expect(
                    result.stderr.contains("slices drawn as instants: more than 1024 overlap on one track"),
                    "\(result.stderr)")
            }
        }
    }

    /// Ten events naming one 16 MiB scene: every command keeps the name once, not once per use.
    @Test(.integration) func aSceneNameOfMegabytesIsKeptOnce() throws {
        let path = Self.repro("scene_name_16MiB_x10.lifetrace")
        for command in [
            ["check"], ["check", "--format", "json"], ["report", "-o", directory.file("r.html")],
            ["report", "-o", directory.file("r.txt")], ["summarize", "-o", directory.file("s.jsonl")],
            ["export", "--format", "chrome", "-o", directory.file("r.json")],
            ["export", "--format", "perfetto", "-o", directory.file("r.pftrace")], ["info"],
        ] {
            let (result, peak) = try measured(command + [path])
            #expect(result.status < 2, "\(command): \(result.stderr)")
            #expect(peak < 128, "\(command) took \(peak) MiB")
        }
    }

    /// `summarize` and `compare` in memory that does not grow with the trace: ten times the events, the same
    /// peak (1 M and 10 M events with a release build, as docs/performance.md measures; a tenth of that in a debug one).
    @Test(.integration) func summarizeAndCompareTakeTheSameMemoryForTenTimesTheEvents() throws {
        let release = CommandLineTool.path.contains("/release/")
        let (small, large) = release ? (1_000_000, 10_000_000) : (100_000, 1_000_000)
        var peaks: [String: [Double]] = [:]
        for events in [small, large] {
            let trace = try walk("walk-\(events).lifetrace", events: events)
            let summary = directory.file("walk-\(events).sum.jsonl")
            let (summarized, summarizePeak) = try measured(["summarize", trace, "-o", summary])
            #expect(summarized.status == 0, "\(summarized.stderr)")
            let (compared, comparePeak) = try measured(["compare", "--base", summary, "--new", trace])
            #expect(compared.status == 0, "\(compared.stderr)")
            peaks["summarize", default: []].append(summarizePeak)
            peaks["compare", default: []].append(comparePeak)
        }
        for (command, pair) in peaks {
            #expect(pair[1] < pair[0] + 8, "\(command): \(pair[0]) MiB at \(small) events, \(pair[1]) MiB at \(large)")
            #expect(pair[1] < 128)
        }
    }

    /// 100,000 handlers of 1 ms, 10 ns apart: each overlaps the next without nesting. The lanes are found in
    /// logarithmic time, at most 1,024 of them; the rest are instants that keep their end.
    @Test(.integration) func overlappingHandlersExportInBoundedTime() throws {
        let path = Self.repro("overlapping_handlers_100k.lifetrace")
        for format in ["chrome", "perfetto"] {
            let start = Date()
            let (result, peak) = try measured(["export", "--format", format, "-o", directory.file("o.\(format)"), path])
            let seconds = Date().timeIntervalSince(start)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("98976 slices drawn as instants"), "\(result.stderr)")
            #expect(peak < 128)
            // Quadratic, it took 25 s in a release build; linear, well under a second there.
            #expect(seconds < 60, "\(format): \(seconds) s")
        }
    }

    @Test(.integration) func bigJSONInputsAreRefusedOrReadInLinearTime() throws {
        let trace = directory.file("g.jsonl")
        try #require(try CommandLineTool.run(["simulate", "-o", trace]).status == 0)
        // 200 MB, sparse: the size is refused before a byte is read.
        let big = directory.file("big.json")
        _ = FileManager.default.createFile(atPath: big, contents: Data("{\"budgets\":{}}".utf8))
        let handle = try #require(FileHandle(forWritingAtPath: big))
        try handle.truncate(atOffset: 200 << 20)
        try handle.close()
        let models = directory.file("models")
        try FileManager.default.createDirectory(atPath: models, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: models + "/m.json", withDestinationPath: big)
        for (option, value, what) in [
            ("--config", big, "a configuration file may be at most 8 MiB"),
            ("--models", models, "a lifecycle model may be at most 8 MiB"),
            ("--baseline", big, "a baseline may be at most 32 MiB"),
        ] {
            let (result, peak) = try measured(["check", option, value, trace])
            #expect(result.status == 2)
            expectOneLine(
                result, mentioning: option == "--models" ? models + "/m.json" : big, ["209715200 bytes: " + what])
            #expect(peak < 128)
        }
        // 100,000 scenes (5 MB) and one line of 40,000 attributes: linear in the members, not quadratic.
        var scenes = "{\"scenes\":{"
        for scene in 0..<100_000 {
            scenes += (scene == 0 ? "" : ",") + "\"s\(scene)\":{\"budgets\":{\"didEnterBackground\":\"1s\"}}"
        }
        let config = directory.write("scenes.json", text: scenes + "}}")
        var attributes = "{\"t\":1,\"ev\":\"custom.x\",\"attrs\":{"
        for key in 0..<40_000 { attributes += (key == 0 ? "" : ",") + "\"k\(key)\":\(key)" }
        let line = directory.write("attrs.jsonl", text: attributes + "}}\n")
        for arguments in [["check", "--config", config, trace], ["check", line]] {
            let start = Date()
            let (result, peak) = try measured(arguments)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(peak < 128)
            // Quadratic, they took 17 s and 6 s in a release build.
            #expect(Date().timeIntervalSince(start) < 30)
        }
        let duplicate = directory.write("duplicate.jsonl", text: attributes + ",\"k39999\":1}}\n")
        let result = try CommandLineTool.run(["check", duplicate])
        #expect(result.status == 2)
        expectOneLine(result, mentioning: duplicate + ":1", ["duplicate attribute \"k39999\""])
    }

    @Test func aFIFOInADirectoryIsAnErrorRowNotAHang() throws {
        let folder = directory.file("walked")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try #require(try CommandLineTool.run(["simulate", "-o", folder + "/good.lifetrace"]).status == 0)
        try #require(try run("/usr/bin/mkfifo", [folder + "/pipe.lifetrace"]).status == 0)
        let rowsFile = directory.file("rows.jsonl")
        let result = try #require(
            try CommandLineTool.run(["summarize", folder, "-o", rowsFile], returningWithin: 60), "a hang")
        #expect(result.status == 2, "\(result.stderr)")
        expectOneLine(result, mentioning: "walked/pipe.lifetrace: not a regular file", ["(1 trace could not be read"])
        let rows = try String(contentsOfFile: rowsFile, encoding: .utf8)
        #expect(rows.contains("\"row\":\"error\",\"trace\":\"\(folder)/pipe.lifetrace\""), "\(rows)")
        #expect(rows.contains("not a regular file (a FIFO or another special file)"))
        #expect(rows.contains("\"row\":\"trace\",\"trace\":\"\(folder)/good.lifetrace\""))
        let compare = try #require(
            try CommandLineTool.run(["compare", "--base", folder, "--new", folder], returningWithin: 60), "a hang")
        #expect(compare.status == 2)
        expectOneLine(compare, mentioning: "walked/pipe.lifetrace: not a regular file")
    }
}
