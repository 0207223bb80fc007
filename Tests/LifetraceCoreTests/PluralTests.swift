import LifetraceCore
import Testing

/// A count and its noun agree in every message: the singular for one, the plural for any other number.
@Suite struct PluralTests {
    @Test(arguments: [
        (0, "event", "0 events"), (1, "event", "1 event"), (2, "event", "2 events"),
        (1, "process", "1 process"), (3, "process", "3 processes"), (2, "relaunch", "2 relaunches"),
        (1, "log entry", "1 log entry"), (5, "log entry", "5 log entries"), (2, "day", "2 days"),
        (2, "data frame", "2 data frames"), (1, "lifecycle error", "1 lifecycle error"),
    ])
    func countAgreesWithItsNoun(count: Int, noun: String, text: String) {
        #expect(Plural.count(count, noun) == text)
    }

    @Test func anIrregularPluralAndTheNounAloneFollowTheCount() {
        #expect(Plural.noun(1, "task was", plural: "tasks were") == "task was")
        #expect(Plural.noun(4, "task was", plural: "tasks were") == "tasks were")
        #expect(Plural.noun(Int64(1), "warning") == "warning" && Plural.noun(UInt(2), "warning") == "warnings")
        #expect(
            Plural.count(UInt64(1), "uses", plural: "use") == "1 uses"
                && Plural.count(2, "uses", plural: "use") == "2 use")
    }
}
