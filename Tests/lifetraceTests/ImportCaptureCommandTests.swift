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
        ("location-launch.idevicesyslog.log", ["--process", "GettingLocationWhenSuspended", "--bundle-id",
                                               "com.mobileoop.GettingLocationWhenSuspended", "--year", "2017",
                                               "--time-zone", "-0400"]),
        ("weather-relaunch.idevicesyslog.log", ["--process", "TheWeather", "--bundle-id", "com.weather.TWC", "--year", "2016"]),
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

    @Test func theYearAndZoneTakenAreSaidAndRecorded() throws {
        let capture = Self.fixture("weather-relaunch.idevicesyslog.log")
        let output = directory.path + "/weather.jsonl"
        let imported = try CommandLineTool.run(["import", capture, "-o", output, "--process", "TheWeather",
                                                "--year", "2016"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains(
            "warning: \(capture): the capture prints no year and no zone: took year 2016 (--year) and zone +0000 (UTC; give --time-zone)"),
            "\(imported.stderr)")
        let header = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").first.map(String.init) ?? ""
        #expect(header.contains(#""year_assumed":2016"#))
        #expect(header.contains(#""time_zone_assumed":true"#))
        #expect(header.contains(#""time_zone":"+0000""#))
        // Both given: a note, not a warning.
        let given = try CommandLineTool.run(["import", capture, "-o", output, "--process", "TheWeather", "--year", "2016",
                                             "--time-zone", "-0500"])
        #expect(given.status == 0)
        #expect(!given.stderr.contains("warning:"), "\(given.stderr)")
        #expect(given.stderr.contains("took year 2016 (--year) and zone -0500 (--time-zone)"))
    }

    @Test func aQuotedDateInsideAMessageIsNoEntry() throws {
        // The capture's first message quotes apsd's own date (`2017-08-07 11:42:42 -0400 apsd[84]: ...`).
        let output = directory.path + "/location.jsonl"
        let imported = try CommandLineTool.run(["import", Self.fixture("location-launch.idevicesyslog.log"), "-o", output,
                                                "--process", "GettingLocationWhenSuspended", "--year", "2017",
                                                "--time-zone=-0400", "--strict"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("from 34 log entries (idevicesyslog)"), "\(imported.stderr)")
        let trace = try String(contentsOfFile: output, encoding: .utf8)
        // 2017-08-07 11:42:42 -0400, the first entry's own time.
        #expect(trace.contains(#""start_unix_ns":1502120562000000000"#))
    }

    @Test func noEventForTheSelectedAppListsTheProcessesSeen() throws {
        let capture = Self.fixture("location-launch.idevicesyslog.log")
        let output = directory.path + "/maps.lifetrace"
        let result = try CommandLineTool.run(["import", capture, "-o", output, "--process", "Maps", "--year", "2017"])
        #expect(result.status == 2)
        #expect(result.stderr.contains(
            "error: \(capture): no event for process Maps in 34 log entries (idevicesyslog); processes seen, with their entries: "
                + "apsd (9), GettingLocationWhenSuspended (6), locationd (6), SpringBoard (3), symptomsd (3), CommCenter (2), "
                + "mediaserverd (2), assertiond (1), misd (1), sharingd (1)"),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func inputInNoFormatSaysWhichWereTriedAndWhatItHolds() throws {
        let capture = directory.write("notes.txt", text: "shopping list\n\nmilk\n")
        let result = try CommandLineTool.run(["import", capture, "-o", directory.path + "/x.jsonl", "--process", "App"])
        #expect(result.status == 2)
        #expect(result.stderr.contains(
            "\(capture):1: not a unified-log capture: no line reads as an entry of console, log-default, log-compact, "
                + "log-syslog, json, idevicesyslog, xcode; the first lines: \"shopping list\", \"milk\""),
            "\(result.stderr)")
    }

    @Test func aZoneThatIsNoOffsetIsAUsageError() throws {
        let result = try CommandLineTool.run(["import", Self.fixture("bgtask.xcode.md"), "-o", directory.path + "/x.jsonl",
                                              "--process", "TestBgTask", "--time-zone", "Mars/Olympus"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--time-zone takes an offset such as +0700, -05:00 or UTC"))
    }
}
