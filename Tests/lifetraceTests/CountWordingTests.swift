import Foundation
import LifetraceTestSupport
import Testing

/// What the tool says of a count agrees with it: "1 event", "2 events", in notes, summaries and warnings alike.
@Suite struct CountWordingTests {
    let directory = TemporaryDirectory()

    /// A trace of one event: a header and a launch.
    func oneEvent() -> String {
        directory.write(
            "one.jsonl",
            text: #"{"lifetrace":1}"# + "\n" + #"{"t":0,"ev":"process.launch","reason":"user","pid":7}"# + "\n")
    }

    @Test func checkSaysOneEvent() throws {
        let trace = oneEvent()
        let result = try CommandLineTool.run(["check", trace])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("\(trace): 1 event, 0 errors, 0 warnings\n"), "\(result.stdout)")
    }

    @Test func exportsNoteSaysOneOfEach() throws {
        let trace = oneEvent()
        let output = directory.file("one.json")
        let result = try CommandLineTool.run(["export", "--format", "chrome", trace, "-o", output])
        #expect(result.status == 0)
        #expect(
            result.stderr
                == "wrote \(output): 1 event of 1 process as 1 slice and 2 instants (0 findings) on 2 tracks\n")
    }

    @Test func infoSaysOneLine() throws {
        let trace = directory.write("single.jsonl", text: #"{"t":0,"ev":"process.launch","reason":"user","pid":7}"#)
        let result = try CommandLineTool.run(["info", trace])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\n  format:      JSON Lines (1 line)\n"), "\(result.stdout)")
    }
}
