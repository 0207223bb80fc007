import Foundation
import LifetraceCore
import LifetraceFormat
import LifetraceImport
import LifetraceIngest
import LifetraceTestSupport
import Testing

/// `lifetrace import`'s run in process: a capture fed line by line, its trace written, and the refusals and notes
/// `import` prints.
@Suite struct CaptureImportTests {
    let directory = TemporaryDirectory()

    static func fixture(_ name: String) -> String {
        PackagePaths.path("Tests/LifetraceImportTests/Fixtures/\(name)")
    }

    /// Imports the capture at `path` into `output` as `import` reads it: line by line, without the newlines.
    func run(
        _ path: String, into output: String, _ selection: AppSelection,
        year: Int? = nil, zone: String? = nil
    ) throws -> (CaptureImport, CaptureImport.Outcome, events: Int) {
        let sink = ImportSink(output: output, live: false)
        var capture = CaptureImport(
            log: path, selection: selection, assumptions: TimeAssumptions(year: year, zone: zone),
            sink: sink)
        let text = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        // The text after the last newline is a line if it is not empty.
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        for line in lines {
            var bytes = Array(line.utf8)
            try bytes.withUnsafeMutableBufferPointer { try capture.feed(UnsafeBufferPointer($0)) }
        }
        let outcome = try capture.finish()
        return (capture, outcome, sink.events)
    }

    @Test func textAroundAPastedCaptureIsSkippedAndSaid() throws {
        let path = Self.fixture("promptpal.console.md")
        let (capture, outcome, events) = try run(
            path, into: directory.file("pasted.jsonl"), AppSelection(process: "PromptPal"))
        #expect(outcome == .imported)
        // Ten of the capture's lines are the app's lifecycle: one event each.
        #expect(events == 10)
        #expect(String(decoding: directory.read("pasted.jsonl"), as: UTF8.self).split(separator: "\n").count == 11)
        #expect(
            capture.skippedNote
                == "\(path): skipped 4 lines that are not log entries, and the text before the entry on 1 line")
        #expect(
            capture.writtenNote(output: "out.jsonl", events: events)
                == "out.jsonl: 10 events from 29 log entries (console)")
        #expect(capture.notUnderstood == nil)
    }

    /// The header is written with the first event, the launch: the events wait for the app's first UI event,
    /// which says where they come from, so that the header written says it too.
    @Test func theWrittenHeaderSaysWhereTheUIEventsComeFrom() throws {
        let prints = directory.file("prints.jsonl")
        let (_, printed, _) = try run(
            Self.fixture("app-prints.xcode.md"), into: prints,
            AppSelection(process: "HBNavigationBarDemo"), year: 2015, zone: "+0800")
        #expect(printed == .imported)
        let printsHeader = try #require(
            String(decoding: directory.read("prints.jsonl"), as: UTF8.self)
                .split(separator: "\n").first)
        #expect(printsHeader.contains(#""app_prints":true"#))
        let mac = directory.file("mac.jsonl")
        let (_, macOutcome, _) = try run(
            Self.fixture("augment-frontmost.compact.log"), into: mac,
            AppSelection(process: "Augment"), year: 2025, zone: "UTC")
        #expect(macOutcome == .imported)
        let macHeader = try #require(
            String(decoding: directory.read("mac.jsonl"), as: UTF8.self)
                .split(separator: "\n").first)
        #expect(macHeader.contains(#""lifecycle":"appkit""#))
        #expect(!macHeader.contains("app_prints"))
    }

    @Test func noEventForTheSelectedAppListsTheProcessesSeen() throws {
        let path = Self.fixture("location-launch.idevicesyslog.log")
        let output = directory.file("maps.lifetrace")
        let (_, outcome, _) = try run(path, into: output, AppSelection(process: "Maps"), year: 2017)
        #expect(
            outcome
                == .noEvent(
                    "\(path): no event for process Maps in 34 log entries (idevicesyslog); processes seen, with their entries: "
                        + "apsd (9), GettingLocationWhenSuspended (6), locationd (6), SpringBoard (3), symptomsd (3), CommCenter (2), "
                        + "mediaserverd (2), assertiond (1), misd (1), sharingd (1)"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func inputInNoFormatSaysWhichWereTriedAndWhatItHolds() throws {
        let path = directory.write("notes.txt", text: "shopping list\n\nmilk\n")
        #expect { try run(path, into: directory.file("x.jsonl"), AppSelection(process: "App")) } throws: {
            ($0 as? TraceError)?.description
                == "\(path):1: not a unified-log capture: no line reads as an entry of console, "
                + "log-default, log-compact, log-syslog, json, idevicesyslog, xcode; the first lines: \"shopping list\", \"milk\""
        }
    }

    @Test func anEmptyInputIsNoCapture() throws {
        let path = directory.write("empty.log", text: "")
        #expect { try run(path, into: directory.file("x.jsonl"), AppSelection(process: "App")) } throws: {
            ($0 as? TraceError)?.description == "\(path): empty: no log line to import"
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("x.jsonl")))
    }

    @Test func unparsableLifecycleLinesAreCountedWithTheFirst() throws {
        let path = directory.write(
            "bad.log",
            text: """
                default\t10:00:00.000000+0000\tApp\tstarting
                default\t10:00:01.000000+0000\tApp\tDeactivation reason added: 12; deactivation reasons: 2080 ->\u{20}
                default\t10:00:02.000000+0000\tApp\tlifetrace ev=app.nope

                """)
        let (capture, _, _) = try run(path, into: directory.file("bad.jsonl"), AppSelection(process: "App"))
        let notUnderstood = try #require(capture.notUnderstood)
        #expect(notUnderstood.count == 2)
        #expect(
            notUnderstood.line.hasPrefix(
                "\(path): 2 lines not understood; first: line 2: Deactivation reason added: 12"))
    }

    /// A year or zone the capture does not print and the options do not give is guessed: a warning; given, a note.
    @Test func theYearAndZoneTakenAreSaid() throws {
        let path = Self.fixture("weather-relaunch.idevicesyslog.log")
        let selection = AppSelection(process: "TheWeather")
        let (guessed, _, _) = try run(path, into: directory.file("guessed.jsonl"), selection, year: 2016)
        let zone = try #require(guessed.assumption(yearGiven: true, zoneGiven: false))
        #expect(
            zone.text
                == "\(path): the capture prints no year and no zone: took year 2016 (--year) and zone +0000 (UTC; give --time-zone)"
        )
        #expect(zone.isWarning)
        let (given, _, _) = try run(path, into: directory.file("given.jsonl"), selection, year: 2016, zone: "-0500")
        let both = try #require(given.assumption(yearGiven: true, zoneGiven: true))
        #expect(both.text.hasSuffix(": took year 2016 (--year) and zone -0500 (--time-zone)"))
        #expect(!both.isWarning)
        // The header records what was taken.
        let header = try #require(
            String(decoding: directory.read("guessed.jsonl"), as: UTF8.self).split(separator: "\n").first)
        #expect(header.contains(#""year_assumed":2016"#) && header.contains(#""time_zone_assumed":true"#))
    }
}
