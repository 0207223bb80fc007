import Foundation
import LifetraceTestSupport
import Testing

/// The file a command writes is put in place only once whole: a failed or interrupted command leaves the file
/// that was there before, byte for byte, and no half-written one beside it.
@Suite struct StagedOutputTests {
    let directory = TemporaryDirectory()

    /// A trace whose first frame's checksum fails: every command reading it fails part way (exit 2).
    private func damagedTrace() throws -> String {
        let trace = directory.file("damaged.lifetrace")
        let simulated = try CommandLineTool.run([
            "simulate", "--scenario", "random", "--seed", "7", "--events", "2000", "-o", trace,
        ])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: trace))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: trace))
        return trace
    }

    /// The names in the test's directory, hidden ones too.
    private var names: Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
    }

    @Test(arguments: [
        ["export", "--format", "chrome", "-o", "out"],
        ["export", "--format", "perfetto", "-o", "out"],
        ["report", "-o", "out.html"],
        ["convert", "out.jsonl"],
    ])
    func aFailedCommandKeepsTheFileThatWasThere(command: [String]) throws {
        let trace = try damagedTrace()
        let outputName = command.last!
        let output = directory.file(outputName)
        let before = Data("precious contents\n".utf8)
        try before.write(to: URL(fileURLWithPath: output))
        let namesBefore = names
        let arguments =
            command.first == "convert"
            ? ["convert", trace, output]
            : Array(command.dropLast()) + [output, trace]
        let result = try CommandLineTool.run(arguments)
        #expect(result.status == 2, "\(command): \(result.stderr)")
        #expect(result.stderr.contains(trace), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == before, "\(command)")
        #expect(names == namesBefore, "\(command) left \(names.subtracting(namesBefore))")
    }

    @Test func anImportThatFailsKeepsTheTraceThatWasThere() throws {
        let output = directory.file("app.lifetrace")
        let before = Data("an earlier import\n".utf8)
        try before.write(to: URL(fileURLWithPath: output))
        // February 29 read as of 2025 stops the import at line 3, after two lines it has read.
        let capture = directory.write(
            "leap.log",
            text: """
                Feb 28 23:59:30 App[10] <Notice>: starting
                Feb 28 23:59:31 App(UIKitCore)[10] <Notice>: Deactivation reason added: 5; deactivation reasons: 0 -> 32; animating application lifecycle event: 1
                Feb 29 00:00:01 App(UIKitCore)[10] <Notice>: Deactivation reason removed: 5; deactivation reasons: 32 -> 0; animating application lifecycle event: 0

                """)
        let result = try CommandLineTool.run(["import", capture, "-o", output, "--process", "App", "--year", "2025"])
        #expect(result.status == 2)
        #expect(
            result.stderr == "error: \(capture):3: Feb 29 is no date of 2025: give the capture's year with --year\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == before)
        #expect(names == ["app.lifetrace", "leap.log"])
    }

    @Test func aReplacedFileKeepsItsPermissionsAndALinkStaysALink() throws {
        let trace = directory.file("walk.lifetrace")
        #expect(
            try CommandLineTool.run(["simulate", "--scenario", "random", "--seed", "7", "--events", "200", "-o", trace])
                .status == 0)
        let target = directory.file("export.json")
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: target))
        // Group-writable: bits a umask of 022 takes from a new file.
        try FileManager.default.setAttributes([.posixPermissions: 0o664], ofItemAtPath: target)
        let link = directory.file("latest.json")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "export.json")

        let result = try CommandLineTool.run(["export", trace, "-o", link])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "export.json")
        let written = try String(contentsOfFile: target, encoding: .utf8)
        #expect(written.hasPrefix("{\"traceEvents\":["))
        let mode = try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o664)
        #expect(names == ["walk.lifetrace", "export.json", "latest.json"])
    }

    @Test func aDeviceIsWrittenInPlace() throws {
        let trace = directory.file("walk.lifetrace")
        #expect(
            try CommandLineTool.run(["simulate", "--scenario", "random", "--seed", "7", "--events", "200", "-o", trace])
                .status == 0)
        let result = try CommandLineTool.run(["export", trace, "-o", "/dev/null"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("wrote /dev/null: "))
        #expect(
            try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType
                == .typeCharacterSpecial)
    }

    /// A file with another name (a hard link) is written in place, so both names still name it.
    @Test func aFileWithAnotherNameIsWrittenInPlace() throws {
        let trace = directory.file("walk.lifetrace")
        #expect(
            try CommandLineTool.run(["simulate", "--scenario", "random", "--seed", "7", "--events", "200", "-o", trace])
                .status == 0)
        let first = directory.file("export.json")
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: first))
        try FileManager.default.linkItem(atPath: first, toPath: directory.file("also.json"))
        #expect(try CommandLineTool.run(["export", trace, "-o", first]).status == 0)
        let written = try Data(contentsOf: URL(fileURLWithPath: first))
        #expect(written.starts(with: Data("{\"traceEvents\":[".utf8)))
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file("also.json"))) == written)
    }

    /// `LINK/../NAME` is where the kernel takes it: beside the directory the link points to.
    @Test func aPathThroughALinkIsTakenAsTheKernelTakesIt() throws {
        let trace = directory.file("walk.lifetrace")
        #expect(
            try CommandLineTool.run(["simulate", "--scenario", "random", "--seed", "7", "--events", "200", "-o", trace])
                .status == 0)
        try FileManager.default.createDirectory(atPath: directory.file("deep/inner"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory.file("sym"), withDestinationPath: "deep/inner")
        #expect(try CommandLineTool.run(["export", trace, "-o", directory.file("sym/../x.json")]).status == 0)
        #expect(FileManager.default.fileExists(atPath: directory.file("deep/x.json")))
        #expect(!FileManager.default.fileExists(atPath: directory.file("x.json")))
    }

    @Test(.integration) func anInterruptedImportKeepsTheFileThatWasThere() throws {
        let output = directory.file("app.lifetrace")
        let before = Data("an earlier import\n".utf8)
        try before.write(to: URL(fileURLWithPath: output))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLineTool.path)
        process.arguments = ["import", "-", "--process", "BareExample", "-o", output]
        let input = Pipe()
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The staged file exists from the start; the import then waits for the rest of its input.
        try Handshake.wait(for: "the staged output") {
            names.contains { $0.hasPrefix(".app.lifetrace.") && $0.hasSuffix(".partial") }
        }
        kill(process.processIdentifier, SIGINT)
        try? Handshake.wait(for: "the import to end", timeout: 10) { !process.isRunning }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + SIGINT)
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == before)
        #expect(names == ["app.lifetrace"])
    }
}
