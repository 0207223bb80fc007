import Foundation
import LifetraceTestSupport
import Testing

/// The third set of reproducers (Fixtures/Repros/SOURCE.md, P1–P13): dates no trace holds, a gate that passed on
/// a wrapped number, outputs that were inputs. Each ends as docs/reliability.md promises.
extension ReliabilityTests {
    /// An idevicesyslog capture whose months go `months` over and over, every line on the 10th at 13:17:45.
    func crossingNewYears(_ name: String, lines: Int, months: [String]) -> String {
        let text = (0..<lines).map {
            "\(months[$0 % months.count]) 10 13:17:45 MyApp(UIKitCore)[812] <Notice>: entry \($0)\n"
        }
        return directory.write(name, text: text.joined())
    }

    /// The line of a capture crossing New Year every four lines from `year` (forward, or backward) whose date is
    /// first outside 1677-09-21 to 2262-04-11 (what 64-bit nanoseconds since 1970 hold): counted on the calendar.
    static func firstLineOutsideRange(from year: Int, months: [Int], forward: Bool) -> Int {
        for index in 0... {
            let y = year + (forward ? 1 : -1) * (index / months.count)
            let month = months[index % months.count]
            if y > 2262 || (y == 2262 && month > 4) || y < 1677 || (y == 1677 && month < 9) { return index + 1 }
        }
        return 0
    }

    // MARK: - P1–P3: no date traps

    @Test func aCaptureWhoseMonthsCrossNewYearPast2262IsBadInput() throws {
        let repro = Self.repro("import_new_years_past_2262.log")
        let out = directory.file("x.lifetrace")
        let message = "the entry's date is outside what a trace holds (1678 to 2262)"
        let result = try CommandLineTool.run(["import", repro, "-o", out, "--process", "MyApp", "--year", "2261"])
        #expect(result.status == 2)
        expectOneLine(result, naming: "\(repro):7: \(message)", [])
        #expect(!FileManager.default.fileExists(atPath: out))
        // The same from standard input as it is produced: the lines before it recorded, the error the same.
        let live = try CommandLineTool.run(
            ["import", "--live", "-o", out, "--process", "MyApp", "--year", "2261"],
            input: try String(contentsOfFile: repro, encoding: .utf8))
        #expect(live.status == 2)
        expectOneLine(live, naming: "-:7: \(message)", [])
        // Without --year, from this year: four lines a year until 2262-04.
        let year = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date()).year!
        let forward = crossingNewYears("forward.log", lines: 1200, months: ["Jan", "Apr", "Jul", "Oct"])
        let line = Self.firstLineOutsideRange(from: year, months: [1, 4, 7, 10], forward: true)
        let unassumed = try CommandLineTool.run(["import", forward, "-o", out, "--process", "MyApp"])
        #expect(unassumed.status == 2)
        expectOneLine(unassumed, naming: "\(forward):\(line): \(message)", [])
        // Backwards from 1971: 292 years on (2^63 ns, counted here with Foundation's calendar), an entry is too far
        // from the first, before any date is below 1678.
        let backward = crossingNewYears("backward.log", lines: 1300, months: ["Oct", "Jul", "Apr", "Jan"])
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        func date(_ index: Int) -> Date {
            calendar.date(
                from: DateComponents(
                    year: 1971 - index / 4, month: [10, 7, 4, 1][index % 4], day: 10,
                    hour: 13, minute: 17, second: 45))!
        }
        let far = (0...).first { date(0).timeIntervalSince(date($0)) > 9_223_372_036.854_775_807 }! + 1
        #expect(far == 1171)
        let early = try CommandLineTool.run(["import", backward, "-o", out, "--process", "MyApp", "--year", "1971"])
        #expect(early.status == 2)
        expectOneLine(early, naming: "\(backward):\(far): the entry is more than 292 years from line 1's", [])
    }

    @Test func aConsoleCopyWhoseMidnightsPass292YearsIsBadInput() throws {
        // Each pair goes back from 23:00 to 01:00, a midnight passed: 2^63 ns hold 106,751 days and part of one,
        // so the 106,752nd midnight (line 2 × 106,752) is one too many.
        let pair = "default\t23:00:00.000000+0000\thootowl\tx\ndefault\t01:00:00.000000+0000\thootowl\ty\n"
        let path = directory.write("days.log", text: String(repeating: pair, count: 110_000))
        let result = try CommandLineTool.run([
            "import", path, "-o", directory.file("x.lifetrace"), "--process", "hootowl",
        ])
        #expect(result.status == 2)
        expectOneLine(
            result,
            naming: "\(path):213504: the capture's time of day went back past midnight more often than a trace holds",
            [])
    }

    @Test func entriesMoreThan292YearsApartAreBadInput() throws {
        let repro = Self.repro("import_dates_292_years_apart.log")
        let result = try CommandLineTool.run([
            "import", repro, "-o", directory.file("x.lifetrace"), "--process", "BareExample",
        ])
        #expect(result.status == 2)
        expectOneLine(result, naming: "\(repro):2: the entry is more than 292 years from line 1's", [])
        // Each alone imports; a date past 2262 (or before 1678) in any dated layout is refused by its line.
        let lines = try String(contentsOfFile: repro, encoding: .utf8).split(separator: "\n")
        for (index, line) in lines.enumerated() {
            let alone = directory.write("alone\(index).log", text: line + "\n")
            #expect(
                try CommandLineTool.run([
                    "import", alone, "-o", directory.file("a\(index).lifetrace"), "--process", "BareExample",
                ]).status == 0)
        }
        let dated = [
            "2263-01-01 00:00:00.000000+0000  0x1  Default  0x0  31848  0  BareExample: (BareExample) [com.example:lc] lifetrace ev=app.didFinishLaunching",
            "1677-01-01 00:00:00.000 Df BareExample[31848:159e4] [com.example:lc] lifetrace ev=app.didFinishLaunching",
            "2262-12-31 10:00:00.000000+0000  localhost BareExample[31848]: (BareExample) [com.example:lc] lifetrace ev=app.didFinishLaunching",
            "{\"timestamp\":\"2263-01-01 00:00:00.000000+0000\",\"processImagePath\":\"/x/BareExample\",\"eventMessage\":\"lifetrace ev=app.didFinishLaunching\"}",
            "default\t2263-01-01 00:00:00.000000 +0000\tBareExample\tlifetrace ev=app.didFinishLaunching",
        ]
        for (index, line) in dated.enumerated() {
            let path = directory.write("dated\(index).log", text: line + "\n")
            let result = try CommandLineTool.run([
                "import", path, "-o", directory.file("d\(index).lifetrace"), "--process", "BareExample",
            ])
            #expect(result.status == 2, "\(line)")
            expectOneLine(
                result, naming: "\(path):1: the entry's date is outside what a trace holds (1678 to 2262)", [])
        }
    }
}
