import Foundation
import LifetraceTestSupport
import Testing

/// `record -- COMMAND` passes SIGINT and SIGTERM on to the command whatever state its output is in, and exits
/// with the command's status (P5 of Fixtures/Repros/SOURCE.md).
extension RecordTests {
    /// A command that records one event, closes its standard output, says so in `closed`, and runs on for
    /// 10 s; `traps` is the `trap` lines of its shell (none: the signal ends it).
    func commandClosingItsOutput(traps: String, sleeper: Bool) -> (script: String, closed: String) {
        let closed = directory.file("closed-\(UUID().uuidString)")
        let run = sleeper ? "exec sleep 10" : "for i in $(seq 100); do sleep 0.1; done; exit 5"
        let script = directory.write(
            "child-\(UUID().uuidString).sh",
            text: """
                #!/bin/bash
                \(traps)
                echo '{"t":0,"ev":"process.launch","reason":"user","pid":1}'
                exec 1>&-
                touch '\(closed)'
                \(run)

                """)
        chmod(script, 0o755)
        return (script, closed)
    }

    @Test(
        .integration,
        arguments: [
            (SIGTERM, false, Int32(7)), (SIGINT, false, 8), (SIGTERM, true, 128 + SIGTERM),
            (SIGINT, true, 128 + SIGINT),
        ])
    func aSignalReachesACommandThatClosedItsOutput(signal: Int32, sleeper: Bool, status: Int32) throws {
        let child = commandClosingItsOutput(traps: "trap 'exit 7' TERM\ntrap 'exit 8' INT", sleeper: sleeper)
        let output = directory.file("closed-\(signal)-\(sleeper).lifetrace")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLineTool.path)
        process.arguments = ["record", "-o", output, "--", child.script]
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Once the command's output has ended, `record` has closed the trace: its index is written.
        try Handshake.wait(for: "the trace of \(output) to be closed") {
            FileManager.default.fileExists(atPath: child.closed)
                && (try? CommandLineTool.run(["info", "--json", output]))?.stdout.contains("\"index_present\":true")
                    == true
        }
        let started = Date()
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "record itself was ended by the signal")
        #expect(process.terminationStatus == status)
        // The command was told, not waited out (it would run 10 s).
        #expect(Date().timeIntervalSince(started) < 8)
        #expect(try CommandLineTool.run(["info", "--json", output]).stdout.contains("\"events\":1"))
    }
}
