import Foundation
import LifetraceTestSupport
import Testing

/// `lifetrace import` as a user runs it: capture in, trace out, then `check`.
@Suite struct ImportCommandTests {
    let directory = TemporaryDirectory()

    static func fixture(_ name: String) -> String {
        PackagePaths.path("Tests/LifetraceImportTests/Fixtures/\(name)")
    }

    @Test(arguments: [
        ("cold-launch.console.log", ["--process", "MobileJarvisNative", "--bundle-id", "com.hightowerai.MobileJarvisNative"]),
        ("background.console.log", ["--process", "hootowl"]),
        ("foreground.console.log", ["--process", "hootowl"]),
        ("crash.console.log", ["--process", "Nexy", "--bundle-id", "com.nexy.assistant"]),
        ("session.default.log", ["--process", "BareExample", "--bundle-id", "com.example.Bare"]),
        ("promptpal.console.md", ["--process", "PromptPal", "--bundle-id", "com.mikhailspeaks.promptpal"]),
        ("roam-sysdiagnose.md", ["--process", "Roam", "--bundle-id", "com.msdrigg.roam"]),
    ])
    func importedCapturesOfWellBehavedAppsPassCheck(fixture: String, selection: [String]) throws {
        let output = directory.path + "/\(fixture).lifetrace"
        let imported = try CommandLineTool.run(["import", Self.fixture(fixture), "-o", output] + selection)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("\(output): "))
        let checked = try CommandLineTool.run(["check", output])
        #expect(checked.status == 0, "\(checked.stdout)")
        #expect(checked.stdout.contains(" 0 errors, 0 warnings"))
    }

    /// The app's uncaught exception ends its process while a background task it began is open: `check` says it
    /// crashed, and reports no leaked task (the crash ended it).
    @Test func aCrashWithATaskOpenIsACrashAndNoLeak() throws {
        let output = directory.path + "/foreground-crash.lifetrace"
        let imported = try CommandLineTool.run(["import", Self.fixture("foreground-crash.console.log"), "-o", output,
                                                "--process", "MobileJarvisNative", "--bundle-id", "com.hightowerai.MobileJarvisNative"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let checked = try CommandLineTool.run(["check", output])
        #expect(checked.status == 0, "\(checked.stdout)")
        #expect(checked.stdout.contains(" 0 errors, 0 warnings"))
        #expect(checked.stdout.contains("ended crashed: the process exited with uncaught-exception, a crash"), "\(checked.stdout)")
        #expect(!checked.stdout.contains("LT041"))
    }

    /// `--meta` gives strings: a member the trace format types otherwise, or one the header states itself, would
    /// write a header no reader takes, so it is refused (exit 2, one line naming the member) and no trace is
    /// written.
    @Test(arguments: [
        ("capture=swizzling", "--meta capture: \"capture\" must be callbacks or notifications"),
        ("heartbeat_ns=1s", "--meta heartbeat_ns: \"heartbeat_ns\" must be an integer"),
        ("clock=wall", "--meta clock: \"clock\" is not metadata: the header states it itself"),
    ])
    func metadataNoReaderTakesIsRefused(member: String, message: String) throws {
        let output = directory.path + "/refused.lifetrace"
        let imported = try CommandLineTool.run(["import", Self.fixture("crash.console.log"), "-o", output,
                                                "--process", "Nexy", "--meta", member])
        #expect(imported.status == 2)
        #expect(imported.stderr.contains(message), "\(imported.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        let simulated = try CommandLineTool.run(["simulate", "--scenario", "cold-launch", "-o", output, "--meta", member])
        #expect(simulated.status == 2)
        #expect(simulated.stderr.contains(message), "\(simulated.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        // A string member the format leaves untyped, or types as a string, is written as given.
        let kept = try CommandLineTool.run(["simulate", "--scenario", "cold-launch", "-o", output, "--meta", "build=417",
                                            "--meta", "team=core"])
        #expect(kept.status == 0, "\(kept.stderr)")
        let info = try CommandLineTool.run(["dump", output])
        #expect(info.stdout.split(separator: "\n").first?.contains(#""build":"417""#) == true, "\(info.stdout)")
        #expect(info.stdout.split(separator: "\n").first?.contains(#""team":"core""#) == true)
    }

    @Test func anOverlongBackgroundHandlerLoggedByTheAppFailsCheck() throws {
        let output = directory.path + "/own.jsonl"
        let imported = try CommandLineTool.run(["import", Self.fixture("own-lines.compact.log"), "-o", output,
                                                "--process", "BareExample"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let checked = try CommandLineTool.run(["check", output])
        #expect(checked.status == 1)
        #expect(checked.stdout.contains("error LT050: didEnterBackground handler over its five seconds"))
        #expect(checked.stdout.contains("took 6.20s"))
    }

    @Test func provenanceNamesTheInputLine() throws {
        let output = directory.path + "/cold.lifetrace"
        _ = try CommandLineTool.run(["import", Self.fixture("cold-launch.console.log"), "-o", output,
                                     "--process", "MobileJarvisNative"])
        let plain = try CommandLineTool.run(["dump", output])
        #expect(!plain.stdout.contains("log_line"))
        let withLines = try CommandLineTool.run(["dump", "--provenance", output])
        let lines = withLines.stdout.split(separator: "\n")
        #expect(lines.last == #"{"t":460374000,"ev":"app.didBecomeActive","attrs":{"log_line":33}}"#)
        #expect(lines.first?.contains(#""source":"oslog""#) == true)
    }

    @Test func unparsableLifecycleLinesWarnAndStrictFails() throws {
        let capture = directory.write("bad.log", text: """
            default\t10:00:00.000000+0000\tApp\tstarting
            default\t10:00:01.000000+0000\tApp\tDeactivation reason added: 12; deactivation reasons: 2080 ->\u{20}
            default\t10:00:02.000000+0000\tApp\tlifetrace ev=app.nope

            """)
        let output = directory.path + "/bad.jsonl"
        let lenient = try CommandLineTool.run(["import", capture, "-o", output, "--process", "App"])
        #expect(lenient.status == 0)
        #expect(lenient.stderr.contains("warning: \(capture): 2 lines not understood; first: line 2: Deactivation reason added: 12"))
        let strict = try CommandLineTool.run(["import", "--strict", capture, "-o", output, "--process", "App"])
        #expect(strict.status == 2)
        #expect(strict.stderr.contains("error: \(capture): 2 lines not understood"))
    }

    @Test(arguments: [
        "shopping list\nmilk\n",
        // Lines that start like JSON but hold no log entry.
        "(\u{B5}/\u{FD}\u{01}\n{\u{01}\u{7F} not json\n[1, 2\n",
    ])
    func somethingElseIsRejectedWithExitTwo(text: String) throws {
        let capture = directory.write("notes.txt", text: text)
        let result = try CommandLineTool.run(["import", capture, "-o", directory.path + "/x.jsonl", "--process", "App"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(capture):1: not a unified-log capture"))
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/x.jsonl"))
    }

    /// An empty input yields no event: no trace is written, and the one error line says why, for a file and for
    /// standard input read live.
    @Test func anEmptyInputIsNoCapture() throws {
        let capture = directory.write("empty.log", text: "")
        let output = directory.path + "/x.lifetrace"
        let file = try CommandLineTool.run(["import", capture, "-o", output, "--process", "App"])
        #expect(file.status == 2)
        #expect(file.stderr == "error: \(capture): empty: no log line to import\n")
        let live = try CommandLineTool.run(["import", "--live", "-o", output, "--process", "App"], input: "")
        #expect(live.status == 2)
        #expect(live.stderr == "error: -: empty: no log line to import\n")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func aTraceIsNoCapture() throws {
        let trace = directory.path + "/run.lifetrace"
        #expect(try CommandLineTool.run(["simulate", "--scenario", "background-and-return", "-o", trace]).status == 0)
        let result = try CommandLineTool.run(["import", trace, "-o", directory.path + "/x.jsonl", "--process", "App"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(trace):1: not a unified-log capture"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/x.jsonl"))
    }

    @Test func anAppMustBeSelected() throws {
        let result = try CommandLineTool.run(["import", Self.fixture("session.ndjson"), "-o", directory.path + "/x.jsonl"])
        #expect(result.status == 2)  // usage errors share bad input's code (docs/commands.md)
        #expect(result.stderr.contains("select the app with --process, --bundle-id or --pid"))
    }

    @Test func liveModeReadsStandardInput() throws {
        let output = directory.path + "/live.lifetrace"
        let capture = try String(contentsOfFile: Self.fixture("session.compact.log"), encoding: .utf8)
        let result = try CommandLineTool.run(["import", "--live", "-o", output, "--process", "BareExample",
                                              "--bundle-id", "com.example.Bare"], input: capture)
        #expect(result.status == 0, "\(result.stderr)")
        let dumped = try CommandLineTool.run(["dump", output])
        #expect(dumped.stdout.split(separator: "\n").count == 12)  // header + 11 events
    }

    @Test(.integration) func liveModeClosesTheTraceOnInterrupt() throws {
        let output = directory.path + "/interrupted.lifetrace"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLineTool.path)
        process.arguments = ["import", "--live", "-o", output, "--process", "BareExample", "--bundle-id", "com.example.Bare"]
        let input = Pipe()
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        // An ndjson entry is complete at its closing brace: all 11 events are derived, and the live import's
        // flush (every second) has written them, before the interrupt.
        input.fileHandleForWriting.write(try Data(contentsOf: URL(fileURLWithPath: Self.fixture("session.ndjson"))))
        try Handshake.wait(for: "11 events in \(output)") {
            try CommandLineTool.run(["info", "--json", output]).stdout.contains("\"events\":11,")
        }
        kill(process.processIdentifier, SIGINT)
        // A tool that ignores the signal would wait for more input: end the input after a deadline so the
        // test fails on the status below instead of hanging.
        try? Handshake.wait(for: "the import to end", timeout: 10) { !process.isRunning }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + SIGINT)
        let info = try CommandLineTool.run(["info", "--json", output])
        #expect(info.stdout.contains("\"events\":11"), "\(info.stdout)")
        #expect(info.stdout.contains("\"index_present\":true"))
    }
}
