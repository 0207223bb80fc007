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
        (
            "cold-launch.console.log",
            ["--process", "MobileJarvisNative", "--bundle-id", "com.hightowerai.MobileJarvisNative"]
        ),
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
        let imported = try CommandLineTool.run([
            "import", Self.fixture("foreground-crash.console.log"), "-o", output,
            "--process", "MobileJarvisNative", "--bundle-id", "com.hightowerai.MobileJarvisNative",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        let checked = try CommandLineTool.run(["check", output])
        #expect(checked.status == 0, "\(checked.stdout)")
        #expect(checked.stdout.contains(" 0 errors, 0 warnings"))
        #expect(
            checked.stdout.contains("ended crashed: the process exited with uncaught-exception, a crash"),
            "\(checked.stdout)")
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
        let imported = try CommandLineTool.run([
            "import", Self.fixture("crash.console.log"), "-o", output,
            "--process", "Nexy", "--meta", member,
        ])
        #expect(imported.status == 2)
        #expect(imported.stderr.contains(message), "\(imported.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        let simulated = try CommandLineTool.run([
            "simulate", "--scenario", "cold-launch", "-o", output, "--meta", member,
        ])
        #expect(simulated.status == 2)
        #expect(simulated.stderr.contains(message), "\(simulated.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        // A string member the format leaves untyped, or types as a string, is written as given.
        let kept = try CommandLineTool.run([
            "simulate", "--scenario", "cold-launch", "-o", output, "--meta", "build=417",
            "--meta", "team=core",
        ])
        #expect(kept.status == 0, "\(kept.stderr)")
        let info = try CommandLineTool.run(["dump", output])
        #expect(info.stdout.split(separator: "\n").first?.contains(#""build":"417""#) == true, "\(info.stdout)")
        #expect(info.stdout.split(separator: "\n").first?.contains(#""team":"core""#) == true)
    }

    @Test func anOverlongBackgroundHandlerLoggedByTheAppFailsCheck() throws {
        let output = directory.path + "/own.jsonl"
        let imported = try CommandLineTool.run([
            "import", Self.fixture("own-lines.compact.log"), "-o", output,
            "--process", "BareExample",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        let checked = try CommandLineTool.run(["check", output])
        #expect(checked.status == 1)
        #expect(checked.stdout.contains("error LT050: didEnterBackground handler over its five seconds"))
        #expect(checked.stdout.contains("took 6.20s"))
    }

    @Test func provenanceNamesTheInputLine() throws {
        let output = directory.path + "/cold.lifetrace"
        _ = try CommandLineTool.run([
            "import", Self.fixture("cold-launch.console.log"), "-o", output,
            "--process", "MobileJarvisNative",
        ])
        let plain = try CommandLineTool.run(["dump", output])
        #expect(!plain.stdout.contains("log_line"))
        let withLines = try CommandLineTool.run(["dump", "--provenance", output])
        let lines = withLines.stdout.split(separator: "\n")
        #expect(lines.last == #"{"t":460374000,"ev":"app.didBecomeActive","attrs":{"log_line":33}}"#)
        #expect(lines.first?.contains(#""source":"oslog""#) == true)
    }

    @Test func unparsableLifecycleLinesWarnAndStrictFails() throws {
        let capture = directory.write(
            "bad.log",
            text: """
                default\t10:00:00.000000+0000\tApp\tstarting
                default\t10:00:01.000000+0000\tApp\tDeactivation reason added: 12; deactivation reasons: 2080 ->\u{20}
                default\t10:00:02.000000+0000\tApp\tlifetrace ev=app.nope

                """)
        let output = directory.path + "/bad.jsonl"
        let lenient = try CommandLineTool.run(["import", capture, "-o", output, "--process", "App"])
        #expect(lenient.status == 0)
        #expect(
            lenient.stderr.contains(
                "warning: \(capture): 2 lines not understood; first: line 2: Deactivation reason added: 12"))
        let strict = try CommandLineTool.run(["import", "--strict", capture, "-o", output, "--process", "App"])
        #expect(strict.status == 2)
        #expect(strict.stderr.contains("error: \(capture): 2 lines not understood"))
    }

    /// February 29 in a capture read as of 2025 (idevicesyslog prints no year): every time would be wrong, so the
    /// import stops with one line naming the entry's line, and leaves no trace; with the capture's year it imports.
    @Test func aDateTheYearDoesNotHaveIsAnError() throws {
        let capture = directory.write(
            "leap.log",
            text: """
                Feb 28 23:59:30 App[10] <Notice>: starting
                Feb 28 23:59:31 App(UIKitCore)[10] <Notice>: Deactivation reason added: 5; deactivation reasons: 0 -> 32; animating application lifecycle event: 1
                Feb 29 00:00:01 App(UIKitCore)[10] <Notice>: Deactivation reason removed: 5; deactivation reasons: 32 -> 0; animating application lifecycle event: 0

                """)
        let output = directory.path + "/leap.jsonl"
        let wrong = try CommandLineTool.run(["import", capture, "-o", output, "--process", "App", "--year", "2025"])
        #expect(wrong.status == 2)
        #expect(wrong.stderr == "error: \(capture):3: Feb 29 is no date of 2025: give the capture's year with --year\n")
        #expect(!FileManager.default.fileExists(atPath: output))
        let right = try CommandLineTool.run(["import", capture, "-o", output, "--process", "App", "--year", "2024"])
        #expect(right.status == 0)
        // 2024-02-29 00:00:01 is 31 s after 2024-02-28 23:59:30: the app becomes active again there.
        #expect(
            try String(contentsOfFile: output, encoding: .utf8).contains(
                #"{"t":31000000000,"ev":"app.didBecomeActive","attrs":{"log_line":3}}"#))
    }

    /// A line longer than the most read at once (a message of megabytes) counts as one line: the lines after it
    /// keep their numbers in the trace's provenance.
    @Test func aLineOfMegabytesIsOneLine() throws {
        let capture = directory.write(
            "long.log",
            text: """
                default\t10:00:00.000000+0000\tApp\tstarting \(String(repeating: "x", count: 3 << 20))
                default\t10:00:01.000000+0000\tApp\tDeactivation reason added: 5; deactivation reasons: 0 -> 32; animating application lifecycle event: 1

                """)
        let output = directory.path + "/long.jsonl"
        let result = try CommandLineTool.run(["import", capture, "-o", output, "--process", "App"])
        #expect(result.status == 0)
        let written = try String(contentsOfFile: output, encoding: .utf8)
        #expect(written.contains(#""ev":"app.willResignActive","attrs":{"log_line":2}}"#), "\(written)")
    }

    /// `log stream --style ndjson` cut short on a line (the capture was stopped mid-write): the object is dropped and
    /// said, and the lines after it are read.
    @Test func aCutJSONLineIsSaidAndTheRestRead() throws {
        let lines = try String(contentsOfFile: Self.fixture("session.ndjson"), encoding: .utf8).split(separator: "\n")
        var cut = lines.map(String.init)
        cut[5] = String(cut[5].prefix(90))
        let capture = directory.write("cut.ndjson", text: cut.joined(separator: "\n") + "\n")
        let output = directory.path + "/cut.jsonl"
        let result = try CommandLineTool.run([
            "import", capture, "-o", output, "--process", "BareExample",
            "--bundle-id", "com.example.Bare",
        ])
        #expect(result.status == 0)
        #expect(result.stderr.contains("\(capture): skipped 1 line that is not a log entry"), "\(result.stderr)")
        #expect(result.stderr.contains("\(lines.count - 1) log entries (json)"), "\(result.stderr)")
        // The session's last event, from the capture's last line, is still there.
        let written = try String(contentsOfFile: output, encoding: .utf8)
        #expect(written.contains(#""log_line":\#(lines.count)"#), "\(written)")
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
        let result = try CommandLineTool.run([
            "import", Self.fixture("session.ndjson"), "-o", directory.path + "/x.jsonl",
        ])
        #expect(result.status == 2)  // usage errors share bad input's code (docs/commands.md)
        #expect(result.stderr.contains("select the app with --process, --bundle-id or --pid"))
    }

    @Test func liveModeReadsStandardInput() throws {
        let output = directory.path + "/live.lifetrace"
        let capture = try String(contentsOfFile: Self.fixture("session.compact.log"), encoding: .utf8)
        let result = try CommandLineTool.run(
            [
                "import", "--live", "-o", output, "--process", "BareExample",
                "--bundle-id", "com.example.Bare",
            ], input: capture)
        #expect(result.status == 0, "\(result.stderr)")
        let dumped = try CommandLineTool.run(["dump", output])
        #expect(dumped.stdout.split(separator: "\n").count == 12)  // header + 11 events
    }

    @Test(.integration) func liveModeClosesTheTraceOnInterrupt() throws {
        let output = directory.path + "/interrupted.lifetrace"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLineTool.path)
        process.arguments = [
            "import", "--live", "-o", output, "--process", "BareExample", "--bundle-id", "com.example.Bare",
        ]
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
