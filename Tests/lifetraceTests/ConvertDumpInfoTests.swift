import Foundation
import LifetraceFormat
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// `convert`, `dump` and `info` as a user runs them, with their exit codes.
@Suite struct ConvertDumpInfoTests {
    let directory = TemporaryDirectory()

    @Test(arguments: PackagePaths.sampleTraces(extension: "jsonl"))
    func convertingToBinaryAndDumpingGivesTheSameLines(sample: String) throws {
        let binary = directory.file("s.lifetrace")
        let convert = try CommandLineTool.run(["convert", sample, binary])
        #expect(convert.status == 0, "\(convert.stderr)")
        let dump = try CommandLineTool.run(["dump", binary])
        #expect(dump.status == 0)
        #expect(dump.stdout == (try String(contentsOfFile: sample, encoding: .utf8)))
        let back = directory.file("s.jsonl")
        #expect(try CommandLineTool.run(["convert", binary, back]).status == 0)
        #expect(directory.read("s.jsonl") == Array(try Data(contentsOf: URL(fileURLWithPath: sample))))
    }

    /// A recorder's stored frames (no compression, as an app writes them) recompressed by `convert`: the same
    /// lines, a smaller file, and frames `zstd -t` accepts either way.
    @Test(.integration) func convertRecompressesAStoredTrace() throws {
        let sample = PackagePaths.path("SampleTraces/sim-random.uikit-scenes.jsonl")
        let stored = directory.file("stored.lifetrace")
        let writer = try BinaryTraceWriter(
            sink: try FileSink(path: stored), header: nil, options: .init(codec: .stored))
        let reader = try TraceReader(path: sample)
        while let event = try reader.next() { try writer.append(event) }
        try writer.close()
        let compressed = directory.file("compressed.lifetrace")
        #expect(try CommandLineTool.run(["convert", stored, compressed]).status == 0)
        let storedDump = try CommandLineTool.run(["dump", stored])
        #expect(storedDump.status == 0)
        #expect(storedDump.stdout == (try CommandLineTool.run(["dump", compressed])).stdout)
        let storedSize = directory.read("stored.lifetrace").count
        let compressedSize = directory.read("compressed.lifetrace").count
        #expect(compressedSize * 2 < storedSize, "\(compressedSize) bytes compressed, \(storedSize) stored")
        let zstd = try #require(which("zstd"))
        #expect(try run(zstd, ["-q", "-t", stored]).status == 0)
        #expect(try run(zstd, ["-q", "-t", compressed]).status == 0)
    }

    @Test func convertReadsStandardInputAndWritesStandardOutput() throws {
        let line = "{\"t\":7,\"ev\":\"heartbeat\"}\n"
        let result = try CommandLineTool.run(["convert", "-", "-", "--to", "jsonl"], input: line)
        #expect(result.status == 0)
        #expect(result.stdout == line)
    }

    @Test func aTruncatedTraceIsReadWithAWarningAndExitZero() throws {
        let bytes = directory.read("x")  // empty
        #expect(bytes.isEmpty)
        let full = Array(
            try Data(contentsOf: URL(fileURLWithPath: PackagePaths.path("SampleTraces/seed-phone-call.lifetrace"))))
        let cutAt = full.count - 30
        let path = directory.write("cut.lifetrace", Array(full[0..<cutAt]))
        let result = try CommandLineTool.run(["dump", path])
        #expect(result.status == 0)
        #expect(result.stdout.split(separator: "\n").count == 1)  // the header line only: the one frame is cut
        #expect(result.stderr.hasPrefix("warning: \(path): truncated at byte \(cutAt): 0 events recovered"))
    }

    @Test func badInputExitsTwoWithOneLineNamingTheFileAndLine() throws {
        let path = directory.write(
            "bad.jsonl", text: "{\"t\":0,\"ev\":\"heartbeat\"}\n{\"t\":1,\"ev\":\"scene.didBecomeActive\"}\n")
        for command in ["dump", "info"] {
            let result = try CommandLineTool.run([command, path])
            #expect(result.status == 2)
            #expect(result.stderr == "error: \(path):2: scene.didBecomeActive needs \"scene\"\n")
        }
        let converted = directory.file("out.lifetrace")
        let convert = try CommandLineTool.run(["convert", path, converted])
        #expect(convert.status == 2)
        #expect(!FileManager.default.fileExists(atPath: converted), "a failed convert leaves no partial output")
    }

    @Test func aMissingFileIsBadInput() throws {
        let result = try CommandLineTool.run(["dump", directory.file("missing.lifetrace")])
        #expect(result.status == 2)
        #expect(
            result.stderr == "error: \(directory.file("missing.lifetrace")): cannot open: No such file or directory\n")
    }

    /// A usage error is one line, as bad input's are, naming where the command's help is; exit 2.
    @Test func usageErrorsAreOneLineAndExitTwo() throws {
        let cases: [([String], String)] = [
            (["convert"], "error: missing expected argument '<input>' (see 'lifetrace convert --help')\n"),
            (["frobnicate"], "error: unexpected argument 'frobnicate' (see 'lifetrace --help')\n"),
            (
                ["convert", "--level", "40", "a", "b"],
                "error: --level must be between 1 and 19 (see 'lifetrace convert --help')\n"
            ),
            (
                ["export", "--format", "svg", "t"],
                "error: the value 'svg' is invalid for '--format <format>'. Please provide one of 'perfetto' and 'chrome' "
                    + "(see 'lifetrace export --help')\n"
            ),
        ]
        for (arguments, expected) in cases {
            let result = try CommandLineTool.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr == expected)
            #expect(result.stdout.isEmpty)
        }
        #expect(try CommandLineTool.run(["--help"]).status == 0)
    }

    @Test func recoverRepairsADamagedTrace() throws {
        var full = Array(
            try Data(contentsOf: URL(fileURLWithPath: PackagePaths.path("SampleTraces/seed-cold-launch.lifetrace"))))
        full.append(contentsOf: [0x28, 0xB5, 0x2F, 0xFD, 0x00])  // a torn frame after the index
        let input = directory.write("torn.lifetrace", full)
        let output = directory.file("repaired.lifetrace")
        let result = try CommandLineTool.run(["recover", input, output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("\(output): kept 1 frame, 12 events\n  dropped frame "))
        let dump = try CommandLineTool.run(["dump", output])
        #expect(
            dump.stdout
                == (try String(
                    contentsOfFile: PackagePaths.path("SampleTraces/seed-cold-launch.jsonl"), encoding: .utf8)))
    }
}
