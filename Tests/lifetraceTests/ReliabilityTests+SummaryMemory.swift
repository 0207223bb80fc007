import Foundation
import LifetraceCore
import LifetraceFormat
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// The third set of reproducers, memory (Fixtures/Repros/SOURCE.md, P12): summarize's rows past a mebibyte go to a
/// file, and where none can be made, the command says so rather than keep them in memory.
extension ReliabilityTests {
    /// One process whose `count` tasks each begin and end, in frames of 2^18 events.
    func endedTasks(_ count: Int) throws -> String {
        let path = directory.file("ended_tasks_\(count).lifetrace")
        let writer = try makeEventWriter(
            path: path, header: TraceHeader(clock: .continuous, app: "com.example.App"),
            jsonLines: false, options: .zstd)
        try writer.append(LifecycleEvent(t: 0, kind: .processLaunch, reason: "user", pid: 1))
        for task in 1...Int64(count) {
            try writer.append(LifecycleEvent(t: 2 * task, kind: .taskBegin, task: task))
            try writer.append(LifecycleEvent(t: 2 * task + 1, kind: .taskEnd, task: task))
        }
        try writer.close()
        return path
    }

    @Test(.integration) func summarizeWithoutATemporaryDirectorySpillsBesideTheOutputOrSaysSo() throws {
        let trace = try endedTasks(1_000_000)
        let expected = directory.file("expected.jsonl")
        try #require(try CommandLineTool.run(["summarize", trace, "-o", expected]).status == 0)
        // TMPDIR unusable: the rows go to a file beside the output, the output the same, the memory bounded.
        let output = directory.file("beside.jsonl")
        let (beside, besidePeak) = try measured(
            ["summarize", trace, "-o", output], environment: ["TMPDIR": "/nonexistent"])
        #expect(beside.status == 0, "\(beside.stderr)")
        #expect(besidePeak < 128)
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data(contentsOf: URL(fileURLWithPath: expected)))
        // Nowhere to put them (standard output, from a directory no file can be made in, even by root): one line
        // naming the temporary directory and the one tried after it, exit 2.
        let report = directory.file("nowhere-time")
        let nowhere = try shell(
            """
            cd /proc && TMPDIR=/nonexistent /usr/bin/time -f %M -o '\(report)' "$L" summarize '\(trace)' -o - > /dev/null
            """)
        let nowherePeak =
            (Double(
                (try String(contentsOfFile: report, encoding: .utf8)).split(separator: "\n").last.map(String.init) ?? ""
            ) ?? .infinity) / 1024
        #expect(nowhere.status == 2)
        expectOneLine(nowhere, mentioning: "/nonexistent", ["cannot keep a trace's summary rows", "'.'"])
        #expect(nowherePeak < 128)
    }
}

extension ReliabilityTests {
    /// Ten and forty frames, each one event naming a different scene of 16.7 MB (6 and 23 KB files, within the
    /// format's limits): the commands that analyze a trace keep each name bounded (its first bytes and a hash), so
    /// forty frames take what ten take, not 17 MB more per frame (P8: 693–742 MB at forty), and every command stays
    /// under the 128 MiB docs/reliability.md promises: frames of 16 MiB are decoded two at a time, and what they
    /// decoded to is let go once read (72–92 MB in a release build).
    @Test(.integration) func scenesOfMegabytesTakeMemoryPerSceneNotPerFrame() throws {
        let (ten, forty) = (Self.repro("frames_16MiB_x10.lifetrace"), Self.repro("frames_16MiB_x40.lifetrace"))
        for command in [
            ["info"], ["check"], ["check", "--format", "json"], ["report", "-o", directory.file("r.html")],
            ["summarize", "-o", directory.file("s.jsonl")], ["export", "-o", directory.file("e.pftrace")],
            ["export", "--format", "chrome", "-o", directory.file("e.json")],
        ] {
            let (few, fewPeak) = try measured(command + [ten])
            let (many, manyPeak) = try measured(command + [forty])
            #expect(few.status < 2 && many.status < 2, "\(command): \(few.stderr)\(many.stderr)")
            // Frames are decoded two at a time, so either run's peak holds one or two decoded frames (16.7 MB each)
            // as the threads happen to overlap: ten frames measured 73 or 90 MiB, forty 90 (report, debug build).
            // Kept per frame, forty would take 500 MB more than ten.
            #expect(
                manyPeak - fewPeak < 2 * 17, "\(command): \(fewPeak) MiB for ten frames, \(manyPeak) MiB for forty")
            #expect(manyPeak < 128, "\(command): \(manyPeak) MiB for forty frames")
        }
        // Forty scenes still, each named by its first bytes and a hash: no two merged by the cut.
        let info = try CommandLineTool.run(["info", "--json", forty])
        #expect(info.stdout.contains("\"scenes\":40"), "\(info.stdout.prefix(2000))")
    }
}
