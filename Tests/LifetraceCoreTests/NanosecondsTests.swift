import LifetraceCore
import Testing

@Suite struct NanosecondsTests {
    @Test(arguments: [
        (Int64(0), "0.000000s"), (12_345_678_901, "12.345678s"), (-1_500_000, "-0.001500s"), (999, "0.000000s"),
    ])
    func secondsKeepMicroseconds(ns: Int64, text: String) {
        #expect(Nanoseconds.seconds(ns) == text)
    }

    @Test(arguments: [
        (Int64(850), "850ns"), (12_300, "12.3µs"), (35_000_000, "35.0ms"), (5_200_000_000, "5.20s"),
        (200_000_000_000, "3m20s"), (7_500_000_000_000, "2h05m"),
    ])
    func shortPicksAUnit(ns: Int64, text: String) {
        #expect(Nanoseconds.short(ns) == text)
    }

    @Test(arguments: [
        ("1s", Int64(1_000_000_000)), ("250ms", 250_000_000), ("1m30s", 90_000_000_000), ("2h", 7_200_000_000_000),
        ("500us", 500_000), ("100ns", 100), ("0.5", 500_000_000),
        // Exact decimals (through a Double, 7902293ns came back 7902292).
        ("7902293ns", 7_902_293), ("7.902293s", 7_902_293_000), ("0.1s", 100_000_000), ("4.35", 4_350_000_000),
        ("1.5h", 5_400_000_000_000), ("2m0.000000001s", 120_000_000_001), ("0.0000000019s", 1),
        ("1e3", 1_000_000_000_000),
        ("9223372036.854775807s", Int64.max),
    ])
    func parseReadsDurations(text: String, ns: Int64) {
        #expect(Nanoseconds.parse(text) == ns)
    }

    @Test(arguments: [
        "", "s", "5 parsecs", "1x", "-1", ".s", "1.2.3s", "1..s", "9223372036.854775808s", "2562048h", "inf", "nan",
        "１s",
    ])
    func parseRejectsNonsense(text: String) {
        #expect(Nanoseconds.parse(text) == nil)
    }
}
