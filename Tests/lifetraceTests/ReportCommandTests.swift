import Foundation
import LifetraceTestSupport
import Testing

/// `lifetrace report` and `export` as a user runs them, and the HTML as a browser shows it.
@Suite struct ReportCommandTests {
    let directory = TemporaryDirectory()
    static let browser = ["chromium", "chromium-browser", "google-chrome"].lazy.compactMap(which).first

    @Test func reportWritesASelfContainedPage() throws {
        let output = directory.file("r.html")
        let result = try CommandLineTool.run([
            "report", PackagePaths.path("SampleTraces/fault-leaked-background-task.lifetrace"),
            "-o", output,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let page = try String(contentsOfFile: output, encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(!page.contains("http://") || page.contains("http://www.w3.org/2000/svg"))
        #expect(!page.contains("<link") && !page.contains("src="))
        #expect(page.contains("\"rule\":\"LT042\""))
    }

    @Test func textReportOnAPipeHasNoColour() throws {
        let result = try CommandLineTool.run([
            "report", PackagePaths.path("SampleTraces/sim-multi-window.uikit-scenes.lifetrace"),
        ])
        #expect(result.status == 0)
        #expect(!result.stdout.contains("\u{1B}["))
        #expect(result.stdout.contains("scene S2        │"))
    }

    /// The timeline's width is taken from 40 to 240 columns; outside that it is a usage error, not a silent clamp.
    @Test(arguments: [0, 39, 241])
    func aWidthOutsideTheRangeIsAUsageError(width: Int) throws {
        let trace = PackagePaths.path("SampleTraces/seed-cold-launch.lifetrace")
        let result = try CommandLineTool.run(["report", "--width", "\(width)", trace])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--width takes 40 to 240 columns, not \(width)"))
        #expect(result.stdout.isEmpty)
        let fits = try CommandLineTool.run(["report", "--width", "60", trace])
        #expect(fits.status == 0)
        // The lanes are cut to the width: the process's row is 60 columns.
        #expect(fits.stdout.split(separator: "\n").first { $0.hasPrefix("process") }?.count == 60)
    }

    @Test func exportWritesAChromeTrace() throws {
        let output = directory.file("trace.json")
        let result = try CommandLineTool.run([
            "export", "--format", "chrome",
            PackagePaths.path("SampleTraces/sim-background-task.uikit-scenes.lifetrace"),
            "-o", output,
        ])
        #expect(result.status == 0)
        let object =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any]
        let events = try #require(object?["traceEvents"] as? [[String: Any]])
        #expect(events.contains { $0["cat"] as? String == "task" })
        #expect(events.contains { ($0["args"] as? [String: Any])?["name"] as? String == "background tasks" })
    }

    /// Headless Chromium renders the samples' report with every lane and no script error.
    @Test(.integration, .enabled(if: browser != nil, "Chromium is not installed (scripts/test installs it)"))
    func theReportRendersInABrowser() throws {
        let result = try LifetraceTestSupport.run(
            "/usr/bin/env",
            [
                "LIFETRACE_BIN=\(CommandLineTool.path)", PackagePaths.path("scripts/check-report"),
                "--out", directory.path,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("no script errors"))
        #expect(FileManager.default.fileExists(atPath: directory.file("report.png")))
    }
}
