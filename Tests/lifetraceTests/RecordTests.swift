import Foundation
import LifetraceTestSupport
import Testing

/// `lifetrace record`: live streams become crash-safe traces.
@Suite struct RecordTests {
    let directory = TemporaryDirectory()

    /// The number of events `info` reads in `path` (0 while the file does not read yet).
    static func recordedEvents(_ path: String) throws -> Int {
        let info = try CommandLineTool.run(["info", "--json", path])
        guard info.status == 0, let range = info.stdout.range(of: "\"events\":") else { return 0 }
        return Int(info.stdout[range.upperBound...].prefix { $0.isNumber }) ?? 0
    }

    @Test func recordsStandardInputAndPassesOtherLinesThrough() throws {
        let output = directory.file("run.lifetrace")
        let input = """
            {"lifetrace":1,"app":"com.example.ui-tests"}
            Test Suite 'All tests' started
            {"t":0,"ev":"process.launch","reason":"user"}
            {"t":5000,"ev":"scene.willConnect","scene":"S1"}
            Test Case passed

            """
        let result = try CommandLineTool.run(["record", "-o", output], input: input)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Test Suite 'All tests' started\nTest Case passed\n")
        #expect(result.stderr == "\(output): recorded 2 events\n")
        let dump = try CommandLineTool.run(["dump", output])
        #expect(
            dump.stdout == """
                {"lifetrace":1,"app":"com.example.ui-tests"}
                {"t":0,"ev":"process.launch","reason":"user"}
                {"t":5000,"ev":"scene.willConnect","scene":"S1"}

                """)
    }

    @Test func recordsACommandsOutputAndExitsWithItsStatus() throws {
        let output = directory.file("child.lifetrace")
        let script = "echo '{\"t\":1,\"ev\":\"heartbeat\"}'; echo hello; echo '{\"t\":2,\"ev\":\"heartbeat\"}'; exit 3"
        let result = try CommandLineTool.run(["record", "-o", output, "--", "sh", "-c", script])
        #expect(result.status == 3)
        #expect(result.stdout == "hello\n")
        let info = try CommandLineTool.run(["info", "--json", output])
        #expect(info.stdout.contains("\"events\":2"))
    }

    @Test func aMalformedLifecycleLineIsReportedAndMakesTheStatusTwo() throws {
        let output = directory.file("bad.lifetrace")
        let input =
            "{\"t\":1,\"ev\":\"heartbeat\"}\n{\"t\":2,\"ev\":\"scene.didBecomeActive\"}\n{\"t\":3,\"ev\":\"heartbeat\"}\n"
        let result = try CommandLineTool.run(["record", "-o", output], input: input)
        #expect(result.status == 2)
        // One line: the first line rejected, how many were, and what was recorded.
        #expect(
            result.stderr
                == "error: -:2: scene.didBecomeActive needs \"scene\" (1 line rejected in all); \(output): recorded 2 events\n"
        )
        let info = try CommandLineTool.run(["info", "--json", output])
        #expect(info.stdout.contains("\"events\":2"))
    }

    /// A line whose event holds more text than a recorder keeps is rejected with its line, not lost unsaid.
    @Test func anEventTooLargeToKeepIsRejectedWithItsLine() throws {
        let output = directory.file("large.lifetrace")
        let text = String(repeating: "x", count: 140_000)
        let input =
            "{\"t\":1,\"ev\":\"heartbeat\"}\n{\"t\":2,\"ev\":\"custom.big\",\"attrs\":{\"b\":\"\(text)\"}}\n{\"t\":3,\"ev\":\"heartbeat\"}\n"
        let result = try CommandLineTool.run(["record", "-o", output], input: input)
        #expect(result.status == 2)
        // "custom.big" names the label (3 bytes), "b" the key (1): 140,004 bytes in all.
        #expect(
            result.stderr == "error: -:2: 140004 bytes of text, more than the 131072 a recorder keeps in one event "
                + "(1 line rejected in all); \(output): recorded 2 events\n")
    }

    /// The recording process is killed with SIGKILL: everything flushed before the kill is still there.
    @Test(.integration) func sigkillLosesNothingFlushedBeforeTheKill() throws {
        let output = directory.file("killed.lifetrace")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLineTool.path)
        process.arguments = ["record", "-o", output, "--flush-interval", "50ms"]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var lines = ""
        for i in 0..<500 { lines += "{\"t\":\(i * 1000),\"ev\":\"heartbeat\",\"task\":\(i)}\n" }
        input.fileHandleForWriting.write(Data(lines.utf8))
        // Once the flushes have written all 500 events (the file says so), kill without warning.
        try Handshake.wait(for: "500 events in \(output)") { try Self.recordedEvents(output) == 500 }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        let dump = try CommandLineTool.run(["dump", output])
        #expect(dump.status == 0)
        let tasks = dump.stdout.split(separator: "\n").compactMap { line -> Int? in
            guard let range = line.range(of: "\"task\":") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
        #expect(tasks == Array(0..<500))
        let info = try CommandLineTool.run(["info", "--json", output])
        #expect(info.stdout.contains("\"index_present\":false"), "killed before close: no index, and still readable")
        let repaired = directory.file("repaired.lifetrace")
        #expect(try CommandLineTool.run(["recover", output, repaired]).status == 0)
        #expect(try CommandLineTool.run(["info", "--json", repaired]).stdout.contains("\"index_present\":true"))
    }

    /// `lifetrace arguments` started with one event and a `ready` line on its standard input, once it has passed
    /// `ready` through (its standard input stays open).
    static func recordingOneEvent(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLineTool.path)
        process.arguments = arguments
        let input = Pipe()
        let passedThrough = Pipe()
        process.standardInput = input
        process.standardOutput = passedThrough
        process.standardError = FileHandle.nullDevice
        let watcher = OutputWatcher(passedThrough)
        try process.run()
        input.fileHandleForWriting.write(Data("{\"t\":1,\"ev\":\"heartbeat\"}\nready\n".utf8))
        try watcher.waitForLine("ready")
        return process
    }

    /// SIGTERM once `record` is recording: it has passed through the line after the event, and written the
    /// event's frame. The trace is closed with its index.
    @Test(.integration) func sigtermClosesTheTraceWithItsIndex() throws {
        let output = directory.file("term.lifetrace")
        let process = try Self.recordingOneEvent(["record", "-o", output, "--flush-interval", "50ms"])
        try Handshake.wait(for: "the first frame of \(output)") { try Self.recordedEvents(output) == 1 }
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + SIGTERM)
        let info = try CommandLineTool.run(["info", "--json", output])
        #expect(info.stdout.contains("\"events\":1"))
        #expect(info.stdout.contains("\"index_present\":true"))
    }

    /// SIGTERM as soon as `record` has passed its first line through, twenty times: each time the signal is acted
    /// on (exit 128 + 15) and the trace closed with its index, however early it comes.
    @Test(.integration) func anEarlySigtermIsNeverLost() throws {
        for run in 0..<20 {
            let output = directory.file("early-\(run).lifetrace")
            let process = try Self.recordingOneEvent(["record", "-o", output])
            process.terminate()
            let ended =
                (try? Handshake.wait(for: "record to end on SIGTERM", timeout: 10) { !process.isRunning }) != nil
            if !ended { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            try #require(ended, "run \(run): SIGTERM was lost")
            #expect(process.terminationStatus == 128 + SIGTERM, "run \(run)")
            #expect(
                try CommandLineTool.run(["info", "--json", output]).stdout.contains("\"index_present\":true"),
                "run \(run)")
        }
    }

    /// `record -- COMMAND` killed at random moments while the command writes about 10,000 events a second: with
    /// SIGTERM or SIGINT the trace is closed, index and all; with SIGKILL it reads to its last whole frame. In
    /// every case the events it holds are exactly the first ones the command wrote, in order, none missing.
    @Test(.integration, arguments: [SIGKILL, SIGTERM, SIGINT])
    func killedAtRandomMomentsTheTraceHoldsAPrefixOfTheInput(signal: Int32) throws {
        let generator = """
            import sys, time
            i = 0
            while True:
                for _ in range(10):
                    sys.stdout.write('{"t":%d,"ev":"heartbeat","task":%d}\\n' % (i * 100000, i))
                    i += 1
                sys.stdout.flush()
                time.sleep(0.001)
            """
        let python = try #require(which("python3"))
        var rng = SplitMix64(seed: UInt64(signal))
        for run in 0..<4 {
            let output = directory.file("killed-\(signal)-\(run).lifetrace")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandLineTool.path)
            process.arguments = [
                "record", "-o", output, "--flush-interval", "100ms", "--", python, "-u", "-c", generator,
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Once the first events are on disk (the command has started, however loaded the machine), a kill
            // at a random moment within the next 0.9 s: the delay is the random moment, not a wait.
            try Handshake.wait(for: "the first events in \(output)") { try Self.recordedEvents(output) > 0 }
            usleep(UInt32(rng.next() % 900_000))
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            if signal == SIGKILL {
                #expect(process.terminationReason == .uncaughtSignal)
            } else {
                #expect(process.terminationStatus == 128 + signal)
            }
            let dump = try CommandLineTool.run(["dump", output])
            #expect(dump.status == 0, "\(dump.stderr)")
            let tasks = dump.stdout.split(separator: "\n").compactMap { line -> Int? in
                guard let range = line.range(of: "\"task\":") else { return nil }
                return Int(line[range.upperBound...].prefix { $0.isNumber })
            }
            #expect(tasks == Array(0..<tasks.count), "run \(run): not a prefix of the input")
            #expect(tasks.count > 0, "run \(run): nothing recorded")
            let info = try CommandLineTool.run(["info", "--json", output])
            if signal != SIGKILL {
                #expect(info.stdout.contains("\"index_present\":true"), "run \(run): \(info.stdout)")
                #expect(info.stdout.contains("\"truncated\":false"))
            }
        }
    }
}
