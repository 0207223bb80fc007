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
    func expectOneLine(_ result: ShellResult, mentioning file: String, _ fragments: [String] = [],
                       sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("error: "), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(file), "\(result.stderr)", sourceLocation: sourceLocation)
        for fragment in fragments {
            #expect(result.stderr.contains(fragment), "\(result.stderr)", sourceLocation: sourceLocation)
        }
        #expect(!result.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, sourceLocation: sourceLocation)
    }

    /// A simulated trace of `events` events (the random walk), written by the tool.
    func walk(_ name: String, events: Int) throws -> String {
        let path = directory.file(name)
        let result = try CommandLineTool.run(["simulate", "--scenario", "random", "--events", String(events), "--seed", "42", "-o", path])
        try #require(result.status == 0, "\(result.stderr)")
        return path
    }

    /// One process that begins `count` background tasks and never ends them, in frames of 2^18 events.
    func openTasks(_ count: Int) throws -> String {
        let path = directory.file("open_tasks_\(count).lifetrace")
        let writer = try makeEventWriter(path: path, header: TraceHeader(clock: .continuous, app: "com.example.crafted"),
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
        let result = try CommandLineTool.run(["compare", "--base", Self.repro("compare_int64max_base.sum.jsonl"),
                                              "--new", Self.repro("compare_int64max_new.sum.jsonl")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("state active"))
        for format in ["json", "markdown"] {
            #expect(try CommandLineTool.run(["compare", "--format", format, "--base", Self.repro("compare_int64max_base.sum.jsonl"),
                                             "--new", Self.repro("compare_int64max_new.sum.jsonl")]).status == 0)
        }
    }

    // MARK: - N3: the gate fails closed

    @Test func compareFailsClosedOnASideItCouldNotRead() throws {
        let good = directory.file("good.lifetrace")
        try #require(try CommandLineTool.run(["simulate", "--scenario", "background-and-return", "-o", good]).status == 0)
        let empty = directory.file("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let summary = try CommandLineTool.run(["summarize", good]).stdout
        let next = summary.split(separator: "\n").count + 1
        let bom = directory.write("bom.sum.jsonl", [0xEF, 0xBB, 0xBF] + Array(summary.utf8))
        let object = directory.write("object.sum.jsonl", text: summary + "{}\n")
        let null = directory.write("null.sum.jsonl", text: summary + "null\n")
        let version = directory.write("version.sum.jsonl", text: summary.replacingOccurrences(of: "\"summary_version\":1", with: "\"summary_version\":9"))
        let cases: [(String, [String])] = [
            ("/nonexistent/x.lifetrace", ["/nonexistent/x.lifetrace: cannot open", "1 trace of --new could not be read"]),
            ("/dev/zero", ["/dev/zero: byte 0: not a lifetrace trace"]),
            ("", ["--new: an empty path"]),
            (empty, [empty + ": no trace to compare (--new)"]),
            (bom, [bom + ":1: starts with a byte-order mark"]),
            (object, [object + ":\(next): not a summary row: no summary_version"]),
            (null, [null + ":\(next): not a summary row: null"]),
            (version, [version + ":1: summary_version 9 is not 1"]),
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

    // MARK: - N4, N5, N6, N7, N9: memory and time

    /// 1,000,000 tasks begun and never ended: the analyzer follows the first 65,536 and counts the rest, an
    /// export draws at most 1,024 lanes of a track and the rest as instants, and summaries stream their rows.
    @Test(.integration) func openTasksWithoutEndTakeBoundedMemory() throws {
        let million = try openTasks(1_000_000)
        for command in [["check", "--format", "json"], ["summarize", "-o", directory.file("s.jsonl")]] {
            let (result, peak) = try measured(command + [million])
            #expect(result.status < 2, "\(command): \(result.stderr)")
            #expect(peak < 128, "\(command) took \(peak) MiB")
            if command[0] == "check" {
                #expect(result.stdout.contains("934464 more tasks were begun while 65536 were open"))
            }
        }
        // Drawing every event takes long in a debug build: the same limits at a tenth of the tasks.
        let tenth = try openTasks(100_000)
        for command in [["report", "-o", directory.file("r.html")], ["export", "--format", "chrome", "-o", directory.file("r.json")],
                        ["export", "--format", "perfetto", "-o", directory.file("r.pftrace")]] {
            let (result, peak) = try measured(command + [tenth])
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(peak < 128, "\(command) took \(peak) MiB")
            if command[0] == "export" {
                #expect(result.stderr.contains("slices drawn as instants: more than 1024 overlap on one track"), "\(result.stderr)")
            }
        }
    }

    /// Ten events naming one 16 MiB scene: every command keeps the name once, not once per use.
    @Test(.integration) func aSceneNameOfMegabytesIsKeptOnce() throws {
        let path = Self.repro("scene_name_16MiB_x10.lifetrace")
        for command in [["check"], ["check", "--format", "json"], ["report", "-o", directory.file("r.html")],
                        ["report", "-o", directory.file("r.txt")], ["summarize", "-o", directory.file("s.jsonl")],
                        ["export", "--format", "chrome", "-o", directory.file("r.json")],
                        ["export", "--format", "perfetto", "-o", directory.file("r.pftrace")], ["info"]] {
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
        for (option, value, what) in [("--config", big, "a configuration file may be at most 8 MiB"),
                                      ("--models", models, "a lifecycle model may be at most 8 MiB"),
                                      ("--baseline", big, "a baseline may be at most 32 MiB")] {
            let (result, peak) = try measured(["check", option, value, trace])
            #expect(result.status == 2)
            expectOneLine(result, mentioning: option == "--models" ? models + "/m.json" : big, ["209715200 bytes: " + what])
            #expect(peak < 128)
        }
        // 100,000 scenes (5 MB) and one line of 40,000 attributes: linear in the members, not quadratic.
        var scenes = "{\"scenes\":{"
        for scene in 0..<100_000 { scenes += (scene == 0 ? "" : ",") + "\"s\(scene)\":{\"budgets\":{\"didEnterBackground\":\"1s\"}}" }
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
        let result = try shell("timeout 60 \"$L\" summarize walked -o rows.jsonl")
        #expect(result.status == 2, "\(result.stderr)")
        expectOneLine(result, mentioning: "walked/pipe.lifetrace: not a regular file", ["(1 trace could not be read"])
        let rows = try String(contentsOfFile: directory.file("rows.jsonl"), encoding: .utf8)
        #expect(rows.contains("\"row\":\"error\",\"trace\":\"walked/pipe.lifetrace\""), "\(rows)")
        #expect(rows.contains("not a regular file (a FIFO or another special file)"))
        #expect(rows.contains("\"row\":\"trace\",\"trace\":\"walked/good.lifetrace\""))
        let compare = try shell("timeout 60 \"$L\" compare --base walked --new walked")
        #expect(compare.status == 2)
        expectOneLine(compare, mentioning: "walked/pipe.lifetrace: not a regular file")
    }

    // MARK: - N8: no control character of the input on a terminal

    @Test func controlCharactersInNamesAreEscapedInEveryTextOutput() throws {
        let path = Self.repro("ctl_chars_in_names.jsonl")
        for command in [["check"], ["check", "--format", "github"], ["report", "-o", "-"], ["info"]] {
            let result = try CommandLineTool.run(command + [path])
            #expect(result.status < 2, "\(command): \(result.stderr)")
            let raw = result.stdout.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" && $0 != "\t" || (0x7F..<0xA0).contains($0.value) }
            #expect(raw.isEmpty, "\(command): \(raw.map(\.value))")
            #expect(result.stdout.contains("\\u{1B}]0;PWNED\\u{7}") || command == ["check"], "\(command): \(result.stdout)")
        }
        let github = try CommandLineTool.run(["check", "--format", "github", path]).stdout
        #expect(!github.split(separator: "\n").contains { $0.hasPrefix("::error::INJ") })
    }

    // MARK: - N10, N12: one file, one verdict; no input overwritten

    @Test func convertRefusesAnEventNoJSONLinesReaderAccepts() throws {
        let path = Self.repro("convert_2MiB_scene.lifetrace")
        let out = directory.file("x.jsonl")
        let result = try CommandLineTool.run(["convert", path, out])
        #expect(result.status == 2)
        expectOneLine(result, mentioning: out, [":2: event 0 (scene.didBecomeActive at t=0) would be a line of 2097199 bytes",
                                                  "more than the 1048576 a JSON Lines reader accepts"])
        #expect(!FileManager.default.fileExists(atPath: out))
        let dump = try CommandLineTool.run(["dump", path])
        #expect(dump.status == 2)
        #expect(try CommandLineTool.run(["convert", path, directory.file("x.lifetrace")]).status == 0)
    }

    @Test func anOutputThatIsAnInputIsRefused() throws {
        let a = directory.file("a.jsonl")
        try #require(try CommandLineTool.run(["simulate", "--scenario", "background-and-return", "-o", a]).status == 0)
        let original = directory.read("a.jsonl")
        try FileManager.default.createSymbolicLink(atPath: directory.file("link.jsonl"), withDestinationPath: a)
        for command in [["summarize", a, "-o", a], ["export", a, "-o", a], ["report", a, "-o", a], ["convert", a, a],
                        ["recover", a, a], ["export", a, "-o", directory.file("link.jsonl")]] {
            let result = try CommandLineTool.run(command)
            #expect(result.status == 2, "\(command)")
            expectOneLine(result, mentioning: "is also an input")
            #expect(directory.read("a.jsonl") == original, "\(command) changed its input")
        }
        // import: a capture that imports (exit 0 when written elsewhere) is kept when the output names it.
        let c = directory.write("c.log", text: try String(contentsOfFile: Self.repro("import_strict_two_lines.log"), encoding: .utf8))
        let capture = directory.read("c.log")
        try FileManager.default.createSymbolicLink(atPath: directory.file("link.log"), withDestinationPath: c)
        #expect(try CommandLineTool.run(["import", c, "-o", directory.file("c.lifetrace"), "--process", "BareExample"]).status == 0)
        for output in [c, directory.file("link.log")] {
            let result = try CommandLineTool.run(["import", c, "-o", output, "--process", "BareExample"])
            #expect(result.status == 2, "\(output)")
            expectOneLine(result, mentioning: output, ["is also an input (\(c))"])
            #expect(directory.read("c.log") == capture, "import -o \(output) changed its input")
        }
    }

    // MARK: - N13: what a failed import leaves unsaid, a successful one says

    /// The capture whose `--strict` import fails with its error alone (`aFailedStrictImportWritesNothingAndSaysOneLine`)
    /// imports without `--strict`, and then says what it skipped, the line not understood and the zone it took.
    @Test func aLenientImportSaysWhatItSkippedAndAssumed() throws {
        let log = Self.repro("import_strict_two_lines.log")
        let out = directory.file("x.lifetrace")
        let lenient = try CommandLineTool.run(["import", log, "-o", out, "--process", "BareExample"])
        #expect(lenient.status == 0, "\(lenient.stderr)")
        let lines = lenient.stderr.split(separator: "\n").map(String.init)
        #expect(lines == [
            "\(log): skipped 1 line that is not a log entry",
            "\(out): 2 events from 2 log entries (log-compact)",
            "warning: \(log): 1 lines not understood; first: line 5: lifetrace ev=bogus.kind",
            "warning: \(log): the capture prints no zone: took zone +0000 (UTC; give --time-zone)",
        ], "\(lenient.stderr)")
        #expect(FileManager.default.fileExists(atPath: out))
    }

    // MARK: - N13, N14, N15: record says what it lost, in one line, and loses nothing it can keep

    @Test func recordRejectsInOneLineWithTheCountAndTheFirst() throws {
        let out = directory.file("r.lifetrace")
        var input = "{\"t\":1,\"ev\":\"custom.a\"}\n"
        for number in 0..<150 { input += "{\"t\":\(2 + number),\"ev\":\"nope\"}\n" }
        let result = try CommandLineTool.run(["record", "-o", out], input: input)
        #expect(result.status == 2)
        expectOneLine(result, mentioning: "-:2: unknown event \"nope\"", ["(150 lines rejected in all)", out + ": recorded 1 events"])
    }

    /// An output that cannot be created is one line before anything runs: no line read, no command started
    /// (each rejected line and the close used to repeat the same error in one long line).
    @Test func recordIntoAnOutputItCannotCreateFailsBeforeItStarts() throws {
        let out = directory.file("missing/r.lifetrace")
        let result = try shell("\"$L\" record -o missing/r.lifetrace -- touch ran.txt")
        #expect(result.status == 2)
        expectOneLine(result, mentioning: "missing/r.lifetrace: cannot create")
        #expect(result.stderr.components(separatedBy: "cannot create").count == 2, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("ran.txt")))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// Two producers into one pipe: their lines interleave, some going back in time. Every one is kept, its
    /// time raised to the last one's, as `Recorder.record(_:)` documents.
    @Test func twoProducersIntoOnePipeLoseNothing() throws {
        let producer = directory.write("p.sh", text: """
            k=$1; i=0; while [ $i -lt 2000 ]; do echo "{\\"t\\":$(( ($i * 2 + k) * 1000 + (k * 700) )),\\"ev\\":\\"custom.p$k\\"}"; i=$((i + 1)); done
            """)
        let result = try shell("( bash \(producer) 0 & bash \(producer) 1 & wait ) | \"$L\" record -o two.lifetrace")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("recorded 4000 events"), "\(result.stderr)")
        let events = try CommandLineTool.run(["dump", directory.file("two.lifetrace")]).stdout.split(separator: "\n")
        #expect(events.count(where: { $0.contains("custom.p0") }) == 2000)
        #expect(events.count(where: { $0.contains("custom.p1") }) == 2000)
    }

    /// A file-size limit stands for a full disk: the writes fail, and the loss reaches stderr and the status.
    @Test(.integration) func recordIntoAFullDiskSaysWhatItLost() throws {
        var input = "{\"lifetrace\":1,\"clock\":\"monotonic\"}\n"
        for number in 1...200_000 { input += "{\"t\":\(number * 1000),\"ev\":\"custom.tick\",\"attrs\":{\"n\":\(number)}}\n" }
        let lines = directory.write("lines.jsonl", text: input)
        let result = try shell("ulimit -f 64; \"$L\" record -o full.lifetrace --flush-interval 50ms < \(lines)")
        #expect(result.status == 2, "\(result.stderr)")
        expectOneLine(result, mentioning: "full.lifetrace", ["events lost: the trace could not be written", "recorded 200000 events"])
    }

    // MARK: - N17: the environment's signals are errors, or a quiet end

    @Test(.integration) func aClosedPipeEndsQuietlyAndAFileSizeLimitIsAnError() throws {
        let trace = try walk("t.lifetrace", events: 50_000)
        let dump = try shell("\"$L\" dump t.lifetrace | head -1 > /dev/null; echo \"${PIPESTATUS[0]}\"")
        #expect(dump.stdout == "0\n", "\(dump.stdout) \(dump.stderr)")
        #expect(dump.stderr.isEmpty)
        let export = try shell("\"$L\" export t.lifetrace -o - | head -c 10 > /dev/null; echo \"${PIPESTATUS[0]}\"")
        #expect(export.stdout == "0\n", "\(export.stdout) \(export.stderr)")
        let check = try shell("\"$L\" report \(trace) | head -c 10 > /dev/null; echo \"${PIPESTATUS[0]}\"")
        #expect(check.stdout == "0\n", "\(check.stdout) \(check.stderr)")
        let limited = try shell("ulimit -f 64; \"$L\" simulate --scenario random --events 300000 -o u.lifetrace")
        #expect(limited.status == 2)
        expectOneLine(limited, mentioning: "u.lifetrace", ["write failed: File too large"])
    }

    // MARK: - N18: a truncated trace says so in every output

    @Test func aTruncatedTraceWarnsInCompareThePageAndTheExports() throws {
        let path = Self.repro("truncated_check_silent.lifetrace")
        let good = try walk("good.lifetrace", events: 2_000)
        let compare = try CommandLineTool.run(["compare", "--base", good, "--new", path])
        #expect(compare.status == 0, "\(compare.stderr)")
        #expect(compare.stdout.contains("(warning: 1 truncated, read to their last whole frame)"), "\(compare.stdout)")
        #expect(compare.stderr.contains("warning: \(path): truncated, read to its last whole frame"), "\(compare.stderr)")
        let json = try CommandLineTool.run(["compare", "--format", "json", "--base", good, "--new", path]).stdout
        #expect(json.contains("\"truncated\":{\"base\":0,\"new\":1}"))
        let page = directory.file("r.html")
        #expect(try CommandLineTool.run(["report", path, "-o", page]).status == 0)
        #expect(try String(contentsOfFile: page, encoding: .utf8).contains("warning: \(path): truncated at byte 62000"))
        for (format, file) in [("chrome", "x.json"), ("perfetto", "x.pftrace")] {
            #expect(try CommandLineTool.run(["export", "--format", format, path, "-o", directory.file(file)]).status == 0)
            let bytes = directory.read(file)
            #expect(String(decoding: bytes, as: UTF8.self).contains("warning: truncated at byte 62000"), "\(format)")
        }
    }
}
