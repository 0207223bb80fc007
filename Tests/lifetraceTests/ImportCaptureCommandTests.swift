import Foundation
import LifetraceTestSupport
import Testing

/// `lifetrace import` of what users have in hand besides `log` and Console output: idevicesyslog captures and
/// Xcode's console; and its refusals, which say what they saw.
@Suite struct ImportCaptureCommandTests {
    let directory = TemporaryDirectory()

    static func fixture(_ name: String) -> String {
        PackagePaths.path("Tests/LifetraceImportTests/Fixtures/\(name)")
    }

    @Test(arguments: [
        (
            "location-launch.idevicesyslog.log",
            [
                "--process", "GettingLocationWhenSuspended", "--bundle-id",
                "com.mobileoop.GettingLocationWhenSuspended", "--year", "2017",
                "--time-zone", "-0400",
            ]
        ),
        (
            "weather-relaunch.idevicesyslog.log",
            ["--process", "TheWeather", "--bundle-id", "com.weather.TWC", "--year", "2016"]
        ),
        ("bgtask.xcode.md", ["--process", "TestBgTask"]),
    ])
    func capturesFromDevicesAndXcodePassCheck(fixture: String, selection: [String]) throws {
        let output = directory.path + "/\(fixture).lifetrace"
        let imported = try CommandLineTool.run(["import", Self.fixture(fixture), "-o", output] + selection)
        #expect(imported.status == 0, "\(imported.stderr)")
        let checked = try CommandLineTool.run(["check", output])
        #expect(checked.status == 0, "\(checked.stdout)")
        #expect(checked.stdout.contains(" 0 errors, 0 warnings"))
    }

    @Test func aQuotedDateInsideAMessageIsNoEntry() throws {
        // The capture's first message quotes apsd's own date (`2017-08-07 11:42:42 -0400 apsd[84]: ...`).
        let output = directory.path + "/location.jsonl"
        let imported = try CommandLineTool.run([
            "import", Self.fixture("location-launch.idevicesyslog.log"), "-o", output,
            "--process", "GettingLocationWhenSuspended", "--year", "2017",
            "--time-zone=-0400", "--strict",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("from 34 log entries (idevicesyslog)"), "\(imported.stderr)")
        let trace = try String(contentsOfFile: output, encoding: .utf8)
        // 2017-08-07 11:42:42 -0400, the first entry's own time.
        #expect(trace.contains(#""start_unix_ns":1502120562000000000"#))
    }

    /// No event for the app: exit 2, one line (what it lists is tested in process), no trace written.
    @Test func noEventForTheSelectedAppExitsTwo() throws {
        let capture = Self.fixture("location-launch.idevicesyslog.log")
        let output = directory.path + "/maps.lifetrace"
        let result = try CommandLineTool.run(["import", capture, "-o", output, "--process", "Maps", "--year", "2017"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("error: \(capture): no event for process Maps in 34 log entries"))
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func aZoneThatIsNoOffsetIsAUsageError() throws {
        let result = try CommandLineTool.run([
            "import", Self.fixture("bgtask.xcode.md"), "-o", directory.path + "/x.jsonl",
            "--process", "TestBgTask", "--time-zone", "Mars/Olympus",
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--time-zone takes an offset such as +0700, -05:00 or UTC"))
    }
}
