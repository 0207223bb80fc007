import Testing

@testable import LifetraceImport

/// The capture formats: detection, fields, times and continuation lines.
@Suite struct LogLineParserTests {
    @Test(arguments: [
        ("default\t20:42:13.601596-0500\tSpringBoard\tScene lifecycle state did change: Foreground", LogFormat.console),
        (
            "2026-10-08 11:59:59.318123-0700  0x159e4  Default  0x0  31848  0  App: (UIKitCore) [com.apple.UIKit:Lifecycle] x",
            .logDefault
        ),
        ("2026-10-08 11:59:59.318 Df App[31848:159e4] [com.apple.UIKit:Lifecycle] x", .logCompact),
        ("{\"timestamp\":\"2026-10-08 11:59:59.318123-0700\",\"eventMessage\":\"x\"}", .json),
        ("[{", .json),
    ])
    func detectsTheFormatFromAnEntryLine(line: String, format: LogFormat) {
        #expect(LogFormat.detect(line[...]) == format)
    }

    @Test(arguments: [
        "Timestamp               Ty Process[PID:TID]", "Filtering the log data using \"process == App\"", "",
    ])
    func headerLinesAreNoFormat(line: String) {
        #expect(LogFormat.detect(line[...]) == nil)
    }

    @Test func datesAndZonesBecomeUTCNanoseconds() throws {
        // 2026-10-08 11:59:59 at -07:00 is 18:59:59 UTC: 1791485999 s since 1970 (`date -u -d ... +%s`).
        let stamp = try #require(LogTime.dateTime("2026-10-08 11:59:59.318123-0700"))
        #expect(stamp.ns == 1_791_485_999_318_123_000)
        #expect(stamp.zone == "-0700")
        #expect(LogTime.dateTime("2026-10-08 11:59:59.318")?.ns == 1_791_460_799_318_000_000)
        #expect(LogTime.zoneOffset("+05:30") == 19_800)
        #expect(LogTime.date("1970-01-01") == 0)
        #expect(LogTime.date("2000-03-01") == 11_017)
        #expect(LogTime.date("2026-13-01") == nil)
        #expect(LogTime.timeOfDay("24:00:00") == nil)
    }

    @Test func consoleContinuationLinesJoinTheirEntry() {
        var parser = LogLineParser()
        let lines = [
            "default\t11:06:18.852571+0800\thootowl\tMunicipal+Lifecycle 25",
            "⏸️ app → background: pausing GPS + 2 active proto timer(s)",
            "default\t11:06:18.852636+0800\thootowl\tnext",
        ]
        var entries: [LogLine] = []
        for (index, line) in lines.enumerated() {
            if let entry = parser.feed(line[...], number: index + 1) { entries.append(entry) }
        }
        if let last = parser.finish() { entries.append(last) }
        #expect(
            entries.map(\.message) == [
                "Municipal+Lifecycle 25\n⏸️ app → background: pausing GPS + 2 active proto timer(s)", "next",
            ])
        #expect(entries.map(\.number) == [1, 3])
        #expect(entries[0].timestamp == ((11 * 60 + 6) * 60 + 18) * 1_000_000_000 + 852_571_000)
        #expect(entries[0].zone == "+0800")
        #expect(entries[0].hasDate == false)
    }

    @Test func defaultStyleFieldsAreRead() throws {
        var parser = LogLineParser()
        let line =
            "2026-10-08 11:59:59.000000-0700 0x159e4    Default     0x0                  31848  0    BareExample: (UIKitCore) [com.apple.UIKit:Lifecycle] Deactivation reason added: 10"
        _ = parser.feed(line[...], number: 7)
        let last = parser.finish()
        let entry = try #require(last)
        #expect(entry.process == "BareExample")
        #expect(entry.pid == 31848)
        #expect(entry.subsystem == "com.apple.UIKit")
        #expect(entry.category == "Lifecycle")
        #expect(entry.message == "Deactivation reason added: 10")
        #expect(entry.number == 7)
    }

    @Test func jsonArraysSpreadOverLinesAreRead() throws {
        // `log show --style json` prints an array with one key per line.
        let text = """
            [{
              "timestamp" : "2026-10-08 11:59:59.000000-0700",
              "processImagePath" : "\\/usr\\/libexec\\/runningboardd",
              "processID" : 33,
              "eventMessage" : "Calculated state for app<com.example.Bare(U)>: running-suspended (role: None)"
            },{
              "timestamp" : "2026-10-08 11:59:59.500000-0700",
              "processImagePath" : "\\/usr\\/libexec\\/runningboardd",
              "processID" : 33,
              "eventMessage" : "with a } brace"
            }]
            """
        var parser = LogLineParser()
        var entries: [LogLine] = []
        for (index, line) in text.split(separator: "\n").enumerated() {
            if let entry = parser.feed(line, number: index + 1) { entries.append(entry) }
        }
        #expect(parser.format == .json)
        #expect(entries.map(\.process) == ["runningboardd", "runningboardd"])
        #expect(entries.map(\.number) == [1, 6])
        #expect(entries[1].message == "with a } brace")
        #expect(entries[1].timestamp - entries[0].timestamp == 500_000_000)
    }

    @Test func anEndlessMessageIsCappedNotGrown() {
        var parser = LogLineParser()
        _ = parser.feed("default\t10:00:00.000000+0000\tApp\tstart"[...], number: 1)
        let filler = String(repeating: "x", count: 64 * 1024)
        for number in 2...40 { _ = parser.feed(filler[...], number: number) }
        let last = parser.finish()
        #expect(last?.message.utf8.count ?? 0 <= LogLineParser.maxMessage + filler.utf8.count + 1)
        #expect(last?.message.hasPrefix("start\nxxx") == true)
    }

    @Test func anUnclosedJSONObjectIsDroppedAndReadingGoesOn() {
        var parser = LogLineParser()
        _ = parser.feed("{\"eventMessage\": \"never closed"[...], number: 1)
        let filler = String(repeating: "y", count: 64 * 1024)
        for number in 2...20 { _ = parser.feed(filler[...], number: number) }
        let entry = parser.feed(
            #"{"timestamp":"2026-10-08 11:59:59.000000-0700","processImagePath":"/a/App","eventMessage":"ok"}"#[...],
            number: 21)
        #expect(entry?.message == "ok")
        #expect(entry?.number == 21)
        #expect(parser.skippedLines >= 1)
    }

    /// `log stream --style ndjson` writes an object a line: one cut short (the capture stopped mid-line, or a line
    /// lost its end) is dropped and counted, and the lines after it are read.
    @Test(arguments: [
        #"{"timestamp":"2026-10-08 11:59:59.100000-0700","processImagePath":"/a/App","eventMessage":"cut"#,
        #"{"traceID": 1,"#,
        #"not JSON at all"#,
    ])
    func aDamagedNDJSONLineIsCountedAndTheRestRead(damaged: String) {
        let (parser, entries) = Self.parse([
            #"{"timestamp":"2026-10-08 11:59:59.000000-0700","processImagePath":"/a/App","eventMessage":"one"}"#,
            damaged,
            #"{"timestamp":"2026-10-08 11:59:59.200000-0700","processImagePath":"/a/App","eventMessage":"two"}"#,
            #"{"timestamp":"2026-10-08 11:59:59.300000-0700","processImagePath":"/a/App","eventMessage":"three"}"#,
        ])
        #expect(entries.map(\.message) == ["one", "two", "three"])
        #expect(entries.map(\.number) == [1, 3, 4])
        #expect(parser.skippedLines == 1)
    }

    @Test func anObjectCutAtTheEndIsCounted() {
        let (parser, entries) = Self.parse([
            #"{"timestamp":"2026-10-08 11:59:59.000000-0700","processImagePath":"/a/App","eventMessage":"one"}"#,
            #"{"timestamp":"2026-10-08 11:59:59.200000-0700","processImagePa"#,
        ])
        #expect(entries.map(\.message) == ["one"])
        #expect(parser.skippedLines == 1)
    }

    static func parse(_ lines: [String], _ assumptions: TimeAssumptions = TimeAssumptions(year: 2026))
        -> (parser: LogLineParser, entries: [LogLine])
    {
        var parser = LogLineParser(assumptions: assumptions)
        var entries: [LogLine] = []
        for (index, line) in lines.enumerated() {
            if let entry = parser.feed(line[...], number: index + 1) { entries.append(entry) }
        }
        if let last = parser.finish() { entries.append(last) }
        return (parser, entries)
    }

    /// Console's copy with the date, the zone after a space, and the subsystem and category columns.
    @Test func consoleColumnsWithDateSubsystemAndCategory() throws {
        let (parser, entries) = Self.parse([
            "default\t2025-01-25 13:16:11.060132 -0500\trunningboardd\tcom.apple.runningboard\tttl\t[app<com.msdrigg.roam(95D1E2E9)>:1758] Resuming task.",
            "default\t2025-01-25 13:16:11.150861 -0500\tlaunchd\tuser/501/UIKitApplication:com.msdrigg.roam[6159][rb-legacy] [1758]\t\texited due to SIGPIPE",
            "info\t2025-01-25 13:16:11.068357 -0500\tRoam\tcom.apple.coreaudio",
        ])
        #expect(parser.format == .console)
        #expect(entries.map(\.process) == ["runningboardd", "launchd", "Roam"])
        #expect(
            entries.map(\.subsystem) == [
                "com.apple.runningboard", "user/501/UIKitApplication:com.msdrigg.roam[6159][rb-legacy] [1758]",
                "com.apple.coreaudio",
            ])
        #expect(entries.map(\.category) == ["ttl", nil, nil])
        #expect(
            entries.map(\.message) == [
                "[app<com.msdrigg.roam(95D1E2E9)>:1758] Resuming task.", "exited due to SIGPIPE", "",
            ])
        // 13:16:11.060132 at -05:00 is 18:16:11.060132 UTC; 1737828971 s since 1970 (`date -u -d ... +%s`).
        #expect(entries[0].timestamp == 1_737_828_971_060_132_000)
        #expect(entries[0].hasDate)
        #expect(entries[0].zone == "-0500")
    }

    /// Console's copy with the type column hidden: the time comes first.
    @Test func consoleColumnsWithoutTheType() throws {
        let (parser, entries) = Self.parse([
            "20:42:13.601596-0500\tSpringBoard\tScene lifecycle state did change: Foreground"
        ])
        #expect(parser.format == .console)
        #expect(entries.first?.process == "SpringBoard")
        #expect(entries.first?.message == "Scene lifecycle state did change: Foreground")
        let entry = try #require(entries.first)
        #expect(entry.timestamp == Int64(20 * 3600 + 42 * 60 + 13) * 1_000_000_000 + 601_596_000)
        #expect(entry.zone == "-0500")
    }

    /// `log show --style syslog`: the host, then `process[pid]:`, the sender and `[subsystem:category]`.
    @Test func syslogStyleFieldsAreRead() throws {
        let line =
            "2019-08-23 17:08:45.211461+0300  localhost SpringBoard[20455]: (FrontBoard) [com.apple.FrontBoard:Common] Bootstrapping app<com.example.App> with intent foreground-interactive"
        #expect(LogFormat.detect(line[...]) == .logSyslog)
        let (_, entries) = Self.parse([line])
        let entry = try #require(entries.first)
        #expect(entry.process == "SpringBoard")
        #expect(entry.pid == 20455)
        #expect(entry.subsystem == "com.apple.FrontBoard")
        #expect(entry.category == "Common")
        #expect(entry.message == "Bootstrapping app<com.example.App> with intent foreground-interactive")
        #expect(entry.zone == "+0300")
    }

    /// A host column that ends in `]:` is the host, not the end of the process column (this once trapped).
    @Test func aSyslogHostEndingInBracketColonIsTheHost() throws {
        let first = "2019-08-23 17:08:45.211461+0300  localhost SpringBoard[20455]: (FrontBoard) first"
        let odd = "2019-08-23 17:08:46.000000+0300  a[1]: SpringBoard[20456]: (FrontBoard) second"
        let (_, entries) = Self.parse([first, odd])
        #expect(entries.count == 2)
        let entry = try #require(entries.last)
        #expect(entry.process == "SpringBoard")
        #expect(entry.pid == 20456)
        #expect(entry.message == "second")
    }

    /// A capture pasted into Markdown: prose and fences are skipped and counted (blank lines and fences are
    /// not), a sentence run into the first entry is dropped from it, and prose after a blank line continues
    /// no message.
    @Test func textAroundACaptureIsSkippedAndCounted() {
        let (parser, entries) = Self.parse([
            "Here is what Console showed:",
            "```",
            "look: default\t10:00:00.000000+0000\tApp\tfirst",
            "  a second line of the first message",
            "default\t10:00:01.000000+0000\tApp\tsecond",
            "```",
            "That was all.",
            "",
            "See [the docs](https://example.com) for {more}.",
        ])
        #expect(parser.format == .console)
        #expect(entries.map(\.message) == ["first\n  a second line of the first message", "second"])
        #expect(entries.map(\.number) == [3, 5])
        #expect(parser.skippedLines == 3)
        #expect(parser.skippedPrefixes == 1)
    }
}
