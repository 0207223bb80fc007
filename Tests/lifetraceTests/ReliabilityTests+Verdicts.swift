import Foundation
import LifetraceCore
import LifetraceFormat
import LifetraceTestSupport
import LifetraceZstd
import SystemPackage
import Testing

/// The second set of reproducers, N8–N18: no control character reaches a terminal, one file has one verdict,
/// and what is lost is said.
extension ReliabilityTests {
    // MARK: - N8: no control character of the input on a terminal

    @Test func controlCharactersInNamesAreEscapedInEveryTextOutput() throws {
        let path = Self.repro("ctl_chars_in_names.jsonl")
        for command in [["check"], ["check", "--format", "github"], ["report", "-o", "-"], ["info"]] {
            let result = try CommandLineTool.run(command + [path])
            #expect(result.status < 2, "\(command): \(result.stderr)")
            let raw = result.stdout.unicodeScalars.filter {
                $0.value < 0x20 && $0 != "\n" && $0 != "\t" || (0x7F..<0xA0).contains($0.value)
            }
            #expect(raw.isEmpty, "\(command): \(raw.map(\.value))")
            #expect(
                result.stdout.contains("\\u{1B}]0;PWNED\\u{7}") || command == ["check"], "\(command): \(result.stdout)")
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
        expectOneLine(
            result, mentioning: out,
            [
                ":2: event 0 (scene.didBecomeActive at t=0) would be a line of 2097199 bytes",
                "more than the 1048576 a JSON Lines reader accepts",
            ])
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
        for command in [
            ["summarize", a, "-o", a], ["export", a, "-o", a], ["report", a, "-o", a], ["convert", a, a],
            ["recover", a, a], ["export", a, "-o", directory.file("link.jsonl")],
        ] {
            let result = try CommandLineTool.run(command)
            #expect(result.status == 2, "\(command)")
            expectOneLine(result, mentioning: "is also an input")
            #expect(directory.read("a.jsonl") == original, "\(command) changed its input")
        }
        // import: a capture that imports (exit 0 when written elsewhere) is kept when the output names it.
        let c = directory.write(
            "c.log", text: try String(contentsOfFile: Self.repro("import_strict_two_lines.log"), encoding: .utf8))
        let capture = directory.read("c.log")
        try FileManager.default.createSymbolicLink(atPath: directory.file("link.log"), withDestinationPath: c)
        #expect(
            try CommandLineTool.run(["import", c, "-o", directory.file("c.lifetrace"), "--process", "BareExample"])
                .status == 0)
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
        #expect(
            lines == [
                "\(log): skipped 1 line that is not a log entry",
                "\(out): 2 events from 2 log entries (log-compact)",
                "warning: \(log): 1 line not understood; first: line 5: lifetrace ev=bogus.kind",
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
        expectOneLine(
            result, mentioning: "-:2: unknown event \"nope\"",
            ["(150 lines rejected in all)", out + ": recorded 1 event"])
    }

    /// An output that cannot be created is one line before anything runs: no line read, no command started
    /// (each rejected line and the close used to repeat the same error in one long line).
    @Test func recordIntoAnOutputItCannotCreateFailsBeforeItStarts() throws {
        let out = directory.file("missing/r.lifetrace")
        let result = try CommandLineTool.run(["record", "-o", out, "--", "touch", directory.file("ran.txt")])
        #expect(result.status == 2)
        expectOneLine(result, mentioning: "missing/r.lifetrace: cannot create")
        #expect(result.stderr.components(separatedBy: "cannot create").count == 2, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("ran.txt")))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// Two producers into one pipe: their lines interleave, some going back in time. Every one is kept, its
    /// time raised to the last one's, as `Recorder.record(_:)` documents.
    @Test func twoProducersIntoOnePipeLoseNothing() throws {
        let producer = directory.write(
            "p.sh",
            text: """
                k=$1; i=0; while [ $i -lt 2000 ]; do echo "{\\"t\\":$(( ($i * 2 + k) * 1000 + (k * 700) )),\\"ev\\":\\"custom.p$k\\"}"; i=$((i + 1)); done
                """)
        // Both write into the pipe record reads as its standard input.
        let (readEnd, writeEnd) = try FileDescriptor.pipe()
        let producers = Process()
        producers.executableURL = URL(fileURLWithPath: "/bin/bash")
        producers.arguments = ["-c", "bash \(producer) 0 & bash \(producer) 1 & wait"]
        producers.standardOutput = FileHandle(fileDescriptor: writeEnd.rawValue, closeOnDealloc: false)
        try producers.run()
        try writeEnd.close()
        let result = try CommandLineTool.run(["record", "-o", directory.file("two.lifetrace")], reading: readEnd)
        try readEnd.close()
        producers.waitUntilExit()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("recorded 4000 events"), "\(result.stderr)")
        let events = try CommandLineTool.run(["dump", directory.file("two.lifetrace")]).stdout.split(separator: "\n")
        #expect(events.count(where: { $0.contains("custom.p0") }) == 2000)
        #expect(events.count(where: { $0.contains("custom.p1") }) == 2000)
    }

    /// A file-size limit stands for a full disk: the writes fail, and the loss reaches stderr and the status.
    @Test(.integration) func recordIntoAFullDiskSaysWhatItLost() throws {
        var input = "{\"lifetrace\":1,\"clock\":\"monotonic\"}\n"
        for number in 1...200_000 {
            input += "{\"t\":\(number * 1000),\"ev\":\"custom.tick\",\"attrs\":{\"n\":\(number)}}\n"
        }
        let lines = directory.write("lines.jsonl", text: input)
        let result = try shell("ulimit -f 64; \"$L\" record -o full.lifetrace --flush-interval 50ms < \(lines)")
        #expect(result.status == 2, "\(result.stderr)")
        expectOneLine(
            result, mentioning: "full.lifetrace",
            ["events lost: the trace could not be written", "recorded 200000 events"])
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

    /// An export that cannot be written fails in one line; what it half wrote is removed if it is a regular file,
    /// and a link named as the output (here to `/dev/full`, which refuses every write) is left as it is.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")), arguments: ["perfetto", "chrome"])
    func anExportThatCannotBeWrittenFailsAndRemovesOnlyAFile(format: String) throws {
        let trace = PackagePaths.path("SampleTraces/seed-phone-call.lifetrace")
        let link = directory.file("full.out")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/full")
        let full = try shell("\"$L\" export --format \(format) \(trace) -o full.out")
        #expect(full.status == 2)
        expectOneLine(full, mentioning: "full.out", ["write failed: No space left on device"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "/dev/full")
        // One 1,024-byte block, as bash's `ulimit -f` counts: the sample's export is larger.
        let limited = try shell("ulimit -f 1; \"$L\" export --format \(format) \(trace) -o limited.out")
        #expect(limited.status == 2)
        expectOneLine(limited, mentioning: "limited.out", ["write failed: File too large"])
        #expect(!FileManager.default.fileExists(atPath: directory.file("limited.out")))
    }

    // MARK: - N18: a truncated trace says so in every output

    @Test func aTruncatedTraceWarnsInCompareThePageAndTheExports() throws {
        let path = Self.repro("truncated_check_silent.lifetrace")
        let good = try walk("good.lifetrace", events: 2_000)
        let compare = try CommandLineTool.run(["compare", "--base", good, "--new", path])
        #expect(compare.status == 0, "\(compare.stderr)")
        #expect(
            compare.stdout.contains(
                "no regression: 1 base trace, 1 new (warning: truncated, read to their last whole frame: base 0 of 1, new 1 of 1); "
            ), "\(compare.stdout)")
        #expect(
            compare.stderr.contains("warning: \(path): truncated, read to its last whole frame"), "\(compare.stderr)")
        let json = try CommandLineTool.run(["compare", "--format", "json", "--base", good, "--new", path]).stdout
        #expect(json.contains("\"truncated\":{\"base\":0,\"new\":1}"))
        let page = directory.file("r.html")
        #expect(try CommandLineTool.run(["report", path, "-o", page]).status == 0)
        #expect(try String(contentsOfFile: page, encoding: .utf8).contains("warning: \(path): truncated at byte 62000"))
        for (format, file) in [("chrome", "x.json"), ("perfetto", "x.pftrace")] {
            #expect(
                try CommandLineTool.run(["export", "--format", format, path, "-o", directory.file(file)]).status == 0)
            let bytes = directory.read(file)
            #expect(String(decoding: bytes, as: UTF8.self).contains("warning: truncated at byte 62000"), "\(format)")
        }
    }
}
