import Foundation
import LifetraceTestSupport
import Testing

/// Inputs that once broke lifetrace's promises (Fixtures/Repros, found by fuzzing and by crafting files from
/// the format's specification), run as a user runs them: every one ends with a documented exit status, a
/// single line naming the file and the position for bad input, no signal, and bounded memory.
@Suite struct ReliabilityTests {
    let directory = TemporaryDirectory()

    static func repro(_ name: String) -> String {
        PackagePaths.path("Tests/lifetraceTests/Fixtures/Repros/\(name)")
    }

    /// Runs the tool under GNU time, with `environment` added to its own, and returns its result and peak memory
    /// in MiB.
    func measured(
        _ arguments: [String], input: String? = nil,
        environment: [String: String] = [:]
    ) throws -> (result: ShellResult, peakMiB: Double) {
        let report = directory.file("time-\(UUID().uuidString)")
        let variables =
            environment.isEmpty
            ? [] : ["/usr/bin/env"] + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let result = try run(
            "/usr/bin/time", ["-f", "%M", "-o", report] + variables + [CommandLineTool.path] + arguments, input: input)
        let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        let kilobytes = Double(text.split(separator: "\n").last.map(String.init) ?? "") ?? .infinity
        return (result, kilobytes / 1024)
    }

    /// The standard error of a failing command is one line, without control characters.
    func expectOneLine(
        _ result: ShellResult, naming file: String, _ fragments: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("error: \(file)"), "\(result.stderr)", sourceLocation: sourceLocation)
        for fragment in fragments {
            #expect(result.stderr.contains(fragment), "\(result.stderr)", sourceLocation: sourceLocation)
        }
        #expect(
            !result.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, sourceLocation: sourceLocation)
    }

    // MARK: - Numbers out of range are usage errors, not traps

    @Test func aHugeDurationInALogLineIsAnUnderstoodLineNotACrash() throws {
        let out = directory.file("x.lifetrace")
        let result = try CommandLineTool.run([
            "import", Self.repro("import_huge_dur.log"), "-o", out, "--process", "BareExample",
        ])
        #expect(result.status == 0)
        #expect(
            result.stderr.contains(
                "1 line not understood; first: line 1: lifetrace ev=app.didFinishLaunching dur=99999999999999h"))
    }

    @Test(arguments: [
        ("{\"budgets\": {\"didEnterBackground\": 10000000000}}", "10000000000 s is out of range"),
        ("{\"budgets\": {\"launch\": 1e300}}", "s is out of range"),
        ("{\"budgets\": {\"launch\": \"99999999999999h\"}}", "is not a duration from 0 to 292 years"),
    ])
    func aBudgetOutOfRangeIsBadInput(config: String, fragment: String) throws {
        let path = directory.write("lifetrace.json", Array(config.utf8))
        let result = try CommandLineTool.run([
            "check", "--config", path, PackagePaths.path("SampleTraces/seed-phone-call.lifetrace"),
        ])
        #expect(result.status == 2)
        expectOneLine(result, naming: path, [fragment])
    }

    @Test func theRecordedReproBudgetIsBadInput() throws {
        let result = try CommandLineTool.run([
            "check", "--config", Self.repro("config_budget_overflow.json"),
            PackagePaths.path("SampleTraces/seed-phone-call.lifetrace"),
        ])
        #expect(result.status == 2)
        expectOneLine(result, naming: Self.repro("config_budget_overflow.json"), ["out of range"])
    }

    @Test(arguments: [
        ["record", "-o", "x.lifetrace", "--flush-interval", "9300000000"],
        ["simulate", "--heartbeat", "99999999999999h", "-o", "x.lifetrace"],
        ["simulate", "--duration", "1e300", "-o", "x.lifetrace"],
    ])
    func anOptionOutOfRangeIsAUsageError(arguments: [String]) throws {
        let result = try CommandLineTool.run(arguments.map { $0 == "x.lifetrace" ? directory.file($0) : $0 }, input: "")
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("error: --"))
        #expect(result.stderr.hasSuffix(" --help')\n"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    /// A gate fed nothing fails closed: `app | lifetrace check -` after an app that wrote no line, or `check
    /// <(command)` after a command that failed, is bad input (exit 2), not a trace with no finding.
    @Test func checkOfAnEmptyInputFailsClosed() throws {
        let result = try CommandLineTool.run(["check", "-"], input: "")
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        expectOneLine(result, naming: "-:1", ["no header and no event: the input is empty"])
    }

    /// A configuration and a baseline may come from a pipe (`--config <(jq …)`), read as their files are; one
    /// that is no file of its kind is one line saying why.
    @Test func checkReadsItsSettingsFromPipes() throws {
        let trace = PackagePaths.path("SampleTraces/fault-leaked-background-task.lifetrace")
        let direct = try CommandLineTool.run(["check", trace])
        #expect(direct.status == 1)
        // `<(command)`: a pipe named /dev/fd/N, filled as the command reads it.
        let baseline = try CommandLineTool.run(["check", "--format", "json", trace]).stdout
        let accepted = try withPipe(Array(baseline.utf8)) {
            try CommandLineTool.run(["check", "--baseline", $0, trace])
        }
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.stdout.contains(": 20 events, 0 errors, 0 warnings"))
        let configured = try withPipe(Array("{}\n".utf8)) { try CommandLineTool.run(["check", "--config", $0, trace]) }
        #expect(configured.status == 1)
        #expect(configured.stdout == direct.stdout)
        let directory = PackagePaths.path("SampleTraces")
        let notAFile = try CommandLineTool.run(["check", "--config", directory, trace])
        #expect(notAFile.status == 2)
        expectOneLine(notAFile, naming: directory, ["is a directory"])
    }

    // MARK: - Damage is an error; truncation is a warning every command gives

    @Test(
        .integration,
        arguments: [
            (
                "corrupt_frame_header_reported_as_truncated.lifetrace",
                "byte 169 (frame 1): zstd: frame requires a dictionary"
            ),
            (
                "corrupt_50k_chunk_deleted_check_passes.lifetrace",
                "byte 138254 (frame 1): zstd: compressed block of 289217 bytes"
            ),
            ("custom_empty_label.lifetrace", "byte 138 (frame 1): custom event 1 has an empty label"),
            ("dense_4frames.lifetrace", "byte 138 (frame 1): event count 5592384 exceeds 262144"),
            ("open_tasks_300k_quadratic.lifetrace", "byte 138 (frame 1): event count 600000 exceeds 262144"),
        ])
    func damageIsAnErrorEveryCommandGives(name: String, message: String) throws {
        let path = Self.repro(name)
        for command in [
            ["check"], ["info"], ["dump"], ["report", "-o", directory.file("r.html")],
            ["export", "--format", "chrome", "-o", directory.file("r.json")],
            ["export", "--format", "perfetto", "-o", directory.file("r.pftrace")],
            ["convert", path, directory.file("c.jsonl")],
        ] {
            let arguments = command.first == "convert" ? command : command + [path]
            let (result, peak) = try measured(arguments)
            #expect(result.status == 2, "\(command): \(result.stderr)")
            expectOneLine(result, naming: path, [message])
            #expect(peak < 128, "\(command) took \(peak) MiB")
        }
        // Damage found part way through leaves no half-written export.
        #expect(!FileManager.default.fileExists(atPath: directory.file("r.json")))
        #expect(!FileManager.default.fileExists(atPath: directory.file("r.pftrace")))
    }

    @Test func aTruncatedTraceIsReadWithAWarningEveryOutputCarries() throws {
        let path = Self.repro("truncated_check_silent.lifetrace")
        let warning =
            "warning: \(path): truncated at byte 62000: 0 events recovered (frame 1 at byte 246 is incomplete)\n"
        for command in [
            ["check"], ["report", "-o", directory.file("r.html")],
            ["export", "--format", "chrome", "-o", directory.file("r.json")],
            ["export", "--format", "perfetto", "-o", directory.file("r.pftrace")], ["info"], ["dump"],
        ] {
            let result = try CommandLineTool.run(command + [path])
            #expect(result.status == 0, "\(command)")
            #expect(result.stderr.contains(warning), "\(command): \(result.stderr)")
        }
        let json = try CommandLineTool.run(["check", "--format", "json", path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let first = try #require((object["results"] as? [[String: Any]])?.first)
        #expect(first["input_warnings"] as? [String] == [String(warning.dropFirst("warning: ".count).dropLast())])
        #expect(
            try CommandLineTool.run(["check", "--format", "junit", path]).stdout.contains(
                "<system-err>\(path): truncated at byte 62000"))
        #expect(
            try CommandLineTool.run(["check", "--format", "sarif", path]).stdout.contains(
                "\"toolExecutionNotifications\""))
        #expect(try CommandLineTool.run(["check", "--format", "github", path]).stdout.contains("::warning file="))
    }

    // MARK: - Memory stays bounded whatever the input

    @Test(
        .integration,
        arguments: [
            "findings_scene64KiB_x1000.lifetrace", "findings_scene1MiB_x100.lifetrace",
            "findings_200k_scenes.lifetrace",
        ])
    func memoryIsBoundedWhateverTheFindings(name: String) throws {
        let path = Self.repro(name)
        for command in [
            ["check"], ["check", "--format", "json"], ["report", "-o", directory.file("r.html")],
            ["export", "--format", "chrome", "-o", directory.file("r.json")],
            ["export", "--format", "perfetto", "-o", directory.file("r.pftrace")], ["info"],
        ] {
            let (result, peak) = try measured(command + [path])
            #expect(result.status < 3, "\(command): \(result.stderr)")
            #expect(peak < 128, "\(command) on \(name) took \(peak) MiB")
        }
    }

    /// 65,536 background tasks (the most followed at once) begun and never ended until the end, then ended in
    /// reverse: the tracker finds each in constant time (300,000 took minutes when each search was linear), in
    /// bounded memory.
    @Test(.integration) func manyOpenTasksAreTrackedInLinearTime() throws {
        var text = ""
        let count = 65_536
        for i in 0..<count { text += "{\"t\":\(i),\"ev\":\"task.begin\",\"task\":\(i)}\n" }
        for i in (0..<count).reversed() { text += "{\"t\":\(2 * count - i),\"ev\":\"task.end\",\"task\":\(i)}\n" }
        let path = directory.write("tasks.jsonl", Array(text.utf8))
        let (result, peak) = try measured(["check", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(": \(2 * count) events, 0 errors, 0 warnings\n"))
        #expect(peak < 128, "\(peak) MiB")
    }

    /// Past 100 findings of a rule only the count is kept, and the output says so; the count is exact.
    @Test(.integration) func findingsPastTheCapAreCountedExactly() throws {
        let result = try CommandLineTool.run(["check", Self.repro("findings_200k_scenes.lifetrace")])
        #expect(result.status == 1)
        #expect(result.stdout.contains(": 200000 events, 400000 errors, 0 warnings\n"))
        #expect(
            result.stdout.contains(
                "  LT006: 199900 more errors counted, not shown (the first 100 of a rule are kept)\n"))
        let json = try CommandLineTool.run(["check", "--format", "json", Self.repro("findings_200k_scenes.lifetrace")])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let first = try #require((object["results"] as? [[String: Any]])?.first)
        #expect((first["findings"] as? [Any])?.count == 200)
        #expect(first["errors"] as? Int == 400_000)
    }

    // MARK: - Consistency and terminal safety

    /// The second capture also has prose to skip and no zone: what was skipped and assumed describes a trace
    /// that is not written, so the error alone is said (N13 of the second set).
    @Test(arguments: [("import_strict_unparsed.log", 2), ("import_strict_two_lines.log", 5)])
    func aFailedStrictImportWritesNothingAndSaysOneLine(capture: String, line: Int) throws {
        let out = directory.file("strict.lifetrace")
        let log = Self.repro(capture)
        let result = try CommandLineTool.run(["import", "--strict", log, "-o", out, "--process", "BareExample"])
        #expect(result.status == 2)
        expectOneLine(result, naming: log, ["1 line not understood; first: line \(line): lifetrace ev=bogus.kind"])
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func controlCharactersOfTheInputAreNeverEchoed() throws {
        let path = Self.repro("escape_sequences_in_error.jsonl")
        let result = try CommandLineTool.run(["check", path])
        #expect(result.status == 2)
        expectOneLine(result, naming: path, ["\\u{1B}]0;PWNED\\u{7}"])
    }

    @Test func anIntegerBeyond64BitsIsBadInputNotADouble() throws {
        let path = directory.write(
            "big.jsonl", Array("{\"t\":1,\"ev\":\"custom.x\",\"attrs\":{\"n\":99999999999999999999}}\n".utf8))
        let result = try CommandLineTool.run(["check", path])
        #expect(result.status == 2)
        expectOneLine(result, naming: path + ":1", ["integer out of the signed 64-bit range"])
    }
}
