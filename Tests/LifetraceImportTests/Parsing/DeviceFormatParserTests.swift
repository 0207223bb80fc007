import Testing

@testable import LifetraceImport

/// idevicesyslog's and Xcode's lines: detection (a date quoted inside a message is no entry), columns, the
/// year and zone taken where none is printed, and the banner.
@Suite struct DeviceFormatParserTests {
    @Test(arguments: [
        // idevicesyslog with the device's name as a column (location-launch fixture, line 19).
        (
            "Aug  7 11:42:43 Michael-Kaufmans-iPhone SpringBoard(AssertionServices)[53] <Notice>: [com.mobileoop.GettingLocationWhenSuspended] Bootstrap complete with label: UIKitApplication:com.mobileoop.GettingLocationWhenSuspended[0x966e][63]",
            LogFormat?.some(.idevicesyslog)
        ),
        // ... without it, as libimobiledevice 1.3 prints (wallet-relaunch fixture, line 34), and with
        // microseconds, as 1.4 prints (USBridge capture, below).
        (
            "May 14 14:31:07 EudiWallet(UIKitCore)[1111] <Notice>: Deactivation reason removed: 11; deactivation reasons: 6176 -> 4128; animating application lifecycle event: 1",
            .idevicesyslog
        ),
        (
            "Jul  4 16:25:55.381478 SpringBoard[33] <Notice>: [SBWiFiManager] signal strength bars changed to 3",
            .idevicesyslog
        ),
        ("Dec 27 19:08:34.252035 Runner(UIKitCore)[40007] <Notice>: message", .idevicesyslog),
        // Xcode's console, with the zone (bgtask fixture, line 18) and without (NSLog before Xcode 8).
        (
            "2020-10-11 08:54:01.927263+0700 TestBgTask[381:16973] Simulating launch for task with identifier com.example.bgRefresh",
            .xcode
        ),
        (
            "2015-12-01 17:20:47.452 ThaliTest[2200:2075973] Apache Cordova native platform version 3.9.2 is starting.",
            .xcode
        ),
        (
            "2019-10-19 17:00:14.615646+0300 Schedule Background Task New[48148:1564536] Simulating launch for task with identifier com.basil.imagesuploud",
            .xcode
        ),
        // Dates quoted inside messages: apsd's own (no fraction) and swcd's (`AM`, no process column).
        (
            "2017-08-07 11:42:42 -0400 apsd[84]: <APSDecayTimer: 0x100317ee0>:APSNetworkMonitor decaying cost (1252 - 2) = 1250",
            nil
        ),
        (
            "2016-03-03 10:41:09.650282 AM [SWC] ### Finish URL 'https://weather.com/apple-app-site-association' failed",
            nil
        ),
        ("[connected]", nil),
        // A day of more digits than a day has is no entry (and no overflow however many there are).
        ("Mar 123 09:38:19 iPod TheWeather[235] <Warning>: message", nil),
        ("Mar \(String(repeating: "9", count: 40)) 09:38:19 iPod TheWeather[235] <Warning>: message", nil),
    ])
    func detection(line: String, format: LogFormat?) {
        #expect(LogFormat.detect(line[...]) == format)
    }

    @Test func theDeviceColumnIsToldFromTheEntries() {
        // The first entry's process holds a space: its first word is taken for a device until the next entry,
        // which does not start with it, shows the capture has no device column.
        let (_, entries) = LogLineParserTests.parse([
            "Oct 10 13:17:45 My App(UIKitCore)[812] <Notice>: first",
            "Oct 10 13:17:46 SpringBoard(FrontBoard)[34] <Notice>: second",
            "Oct 10 13:17:47 My App[812] <Notice>: third",
        ])
        #expect(entries.map(\.process) == ["My App", "SpringBoard", "My App"])
        let (_, older) = LogLineParserTests.parse([
            "Mar  3 10:42:32 iPod TheWeather[484] <Warning>: Storage Capacity of 16GB.",
            "Mar  3 10:42:32 iPod Unknown[484] <Error>: ",
            "Mar  3 10:40:45 iPod com.apple.xpc.launchd[1] (UIKitApplication:com.weather.TWC[0x942c][470]) <Notice>: Service exited due to signal: Killed: 9",
        ])
        #expect(older.map(\.process) == ["TheWeather", "Unknown", "com.apple.xpc.launchd"])
        #expect(older.map(\.pid) == [484, 484, 1])
        #expect(older[2].subsystem == "UIKitApplication:com.weather.TWC[0x942c][470]")
        #expect(older[2].message == "Service exited due to signal: Killed: 9")
        #expect(older[1].message == "")
    }

    /// libimobiledevice 1.4's layout, lines as a public capture has them (github.com/USBridge-Technologies/USBridge-Remote
    /// @ 467ceb97b754629b18790265bdf198ae099ec823, `ios_syslog.txt`, lines 1, 15, 16 and 29–33): microseconds, the
    /// `Debug` and `Info` levels, a process without a library, a message with a date of its own that goes on over
    /// indented lines.
    @Test func libimobiledevice14LinesAreRead() throws {
        let (parser, entries) = LogLineParserTests.parse(
            [
                "[connected:68a641ed5b9d24a8d79a4e0cd188ebff199276ce]",
                "Jul  4 16:25:55.241887 backboardd(BackBoardHIDEventProcessors)[63] <Info>: Motion event usagePage:0xFF0C usage:1",
                "Jul  4 16:25:55.244473 locationd[68] <Debug>: [CLGBE] SPU bias estimate inserted: bias,-0.768632,0.092576,-0.583930,variance,0.013021,0.040365,0.001787,temperature,37.708984",
                "Jul  4 16:25:55.376281 wifid(CoreWiFi)[48] <Debug>: [corewifi] Sending XPC event [type=LINK QUALITY, intf=en0, uuid=2F31A, timestamp=2026-07-04 16:25:55.368 +0200 ackTimeout=0ns info={",
                "    LinkQualityMetric = \"rssi=-61dBm per_ant_rssi=(-60dBm, 0dBm) noise=-92dBm snr=24 cca=29.0% ccaSelfTotal=0 ccaOtherTotal=0 interferenceTotal=0 txRate=585.0Mbps txFrames=0 txFail=0 txRetrans=0 txFallbackRate=175.5Mbps rxRate=585.0Mbps rxFrames=1 rxRetryFrames=0 rxToss=0 beaconRecv=81 beaconSched=81 txFwFrames=0 txFwFail=0 txFwRetrans=0\";",
                "}]",
                "Jul  4 16:25:55.376962 wifid(CoreWiFi)[48] <Debug>: [corewifi] COALESCED+CACHED EVENT FOR SUSPENDED PROCESS [LINK QUALITY] (uuid=2F31A pid=323 proc=Preferences service=com.apple.private.corewifi.internal-xpc ackTimeout=0ns)",
                "Jul  4 16:25:55.377553 wifid(CoreWiFi)[48] <Debug>: [corewifi] SENT EVENT [LINK QUALITY] (uuid=2F31A pid=33 proc=SpringBoard service=com.apple.private.corewifi.internal-xpc)",
            ], TimeAssumptions(year: 2026, zone: "+0200"))
        #expect(parser.format == .idevicesyslog)
        #expect(entries.map(\.number) == [2, 3, 4, 7, 8])
        #expect(entries.map(\.process) == ["backboardd", "locationd", "wifid", "wifid", "wifid"])
        #expect(entries.map(\.pid) == [63, 68, 48, 48, 48])
        // The date inside line 4's message is the message's; its indented lines continue it.
        #expect(entries[2].message.hasPrefix("[corewifi] Sending XPC event [type=LINK QUALITY"))
        #expect(entries[2].message.hasSuffix("txFwRetrans=0\";\n}]"))
        // Microseconds kept: .241887 to .377553 is 135.666 ms.
        #expect(entries[4].timestamp - entries[0].timestamp == 135_666_000)
    }

    @Test func theYearAndZoneAreTakenAndNewYearMovesOn() throws {
        let (parser, entries) = LogLineParserTests.parse(
            [
                "[connected:00008030-001A2C3E0E38802E]",
                "Dec 31 23:59:59 iPhone App[1] <Notice>: before",
                "Jan  1 00:00:01.5 iPhone App[1] <Notice>: after",
                "[disconnected:00008030-001A2C3E0E38802E]",
            ], TimeAssumptions(year: 2024, zone: "+01:00"))
        #expect(parser.format == .idevicesyslog)
        #expect(entries.map(\.message) == ["before", "after"])
        #expect(entries[1].timestamp - entries[0].timestamp == 2_500_000_000)
        // 2024-12-31 23:59:59 at +01:00 is 22:59:59 UTC: 1735685999 s since 1970.
        #expect(entries[0].timestamp == 1_735_685_999_000_000_000)
        #expect(entries[0].zone == "+0100")
        #expect(parser.skippedLines == 0)
        #expect(parser.assumedYear && parser.assumedZone)
    }

    @Test func aLineLateAcrossNewYearStaysInTheYearBefore() throws {
        // December 31 after January 1 is a second late, not a year ahead; the entries after it stay in the new year.
        let (parser, entries) = LogLineParserTests.parse(
            [
                "Dec 31 23:59:58 App[1] <Notice>: first",
                "Jan  1 00:00:00 App[1] <Notice>: second",
                "Dec 31 23:59:59 App[1] <Notice>: late",
                "Jan  1 00:00:01 App[1] <Notice>: last",
            ], TimeAssumptions(year: 2024, zone: "UTC"))
        // 2024-12-31 23:59:58 UTC is 1735689598 s since 1970.
        #expect(
            entries.map { $0.timestamp / 1_000_000_000 } == [
                1_735_689_598, 1_735_689_600, 1_735_689_599, 1_735_689_601,
            ])
        #expect(parser.impossibleDate == nil)
    }

    @Test(arguments: [(2025, "Feb 29", 2, 29, 2025), (2024, "Feb 29", nil, nil, nil), (2026, "Apr 31", 4, 31, 2026)])
    func aDayTheYearDoesNotHaveStopsTheImport(year: Int, date: String, month: Int64?, day: Int64?, takenYear: Int?) {
        let (parser, entries) = LogLineParserTests.parse(
            [
                "Feb 28 23:59:30 App[1] <Notice>: before",
                "\(date) 00:00:10 App[1] <Notice>: the day",
            ], TimeAssumptions(year: year, zone: "UTC"))
        if let month, let day, let takenYear {
            // The import stops at the line (`CaptureImport`): it is no entry of its own.
            #expect(parser.impossibleDate == ImpossibleDate(line: 2, month: month, day: day, year: takenYear))
            #expect(entries.count == 1)
        } else {
            #expect(parser.impossibleDate == nil)
            #expect(entries.count == 2)
            // 2024-02-29 00:00:10 is 24 h 40 s after 2024-02-28 23:59:30.
            #expect(entries[1].timestamp - entries[0].timestamp == 40_000_000_000)
        }
    }

    @Test func theImpossibleDateSaysWhatToDo() {
        #expect(
            ImpossibleDate(line: 4, month: 2, day: 29, year: 2025).message
                == "Feb 29 is no date of 2025: give the capture's year with --year")
    }

    @Test func xcodeWithoutAZoneTakesTheAssumedOne() throws {
        let (parser, entries) = LogLineParserTests.parse(
            [
                "2015-12-01 17:20:47.452 ThaliTest[2200:2075973] Apache Cordova native platform version 3.9.2 is starting.",
                "peerAvailabilityChanged [{\"peerAvailable\":true}]",
                ",2015-12-01 17:20:47.878 ThaliTest[2200:2075973] Multi-tasking -> Device: YES, App: YES",
            ], TimeAssumptions(zone: "+0100"))
        #expect(parser.format == .xcode)
        #expect(
            entries.map(\.message) == [
                "Apache Cordova native platform version 3.9.2 is starting.\npeerAvailabilityChanged [{\"peerAvailable\":true}]",
                "Multi-tasking -> Device: YES, App: YES",
            ])
        // 17:20:47.452 at +01:00 is 16:20:47.452 UTC: 1448986847 s since 1970.
        #expect(entries[0].timestamp == 1_448_986_847_452_000_000)
        #expect(entries[0].pid == 2200)
        #expect(parser.assumedZone)
        #expect(!parser.assumedYear)
        // The comma a joined log put before the second entry is text before it.
        #expect(parser.skippedPrefixes == 1)
    }

    @Test(arguments: [
        ("+0700", "+0700"), ("-05:00", "-0500"), ("+05", "+0500"), ("UTC", "+0000"), ("Z", "+0000"),
        ("Europe/Paris", nil), ("+2500", nil), ("0700", nil),
    ])
    func zonesAreNormalized(text: String, zone: String?) {
        #expect(TimeAssumptions.normalizedZone(text) == zone)
    }

    @Test func aRefusalShowsTheFirstLines() {
        let (parser, entries) = LogLineParserTests.parse(["shopping list", "", "milk", "eggs", "bread"])
        #expect(entries.isEmpty)
        #expect(parser.format == nil)
        #expect(parser.firstLines == ["shopping list", "milk", "eggs"])
    }
}
