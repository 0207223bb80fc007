import LifetraceAnalysis
import Testing

@testable import LifetraceReport

/// A slice's own values are named and spelled as the exports have always shown them, and kept in the order added.
@Suite struct ExportExtraTests {
    @Test func eachValueHasItsNameAndText() {
        let expected: [(ExportExtra, String, ExportValue)] = [
            (.returned(false), "returned", .bool(false)),
            (.returned(true), "returned", .bool(true)),
            (.dur(1_500), "dur", .int(1_500)),
            (.outcome(.begunAgain), "outcome", .string("begun again before it ended")),
            (.outcome(.ended), "outcome", .string("ended")),
            (.outcome(.endedAfterExpiration), "outcome", .string("ended after its expiration handler ran")),
            (.outcome(.openWhenTraceEnded), "outcome", .string("open when the trace ended")),
            (.outcome(.openWhenProcessEnded), "outcome", .string("open when its process ended")),
            (.begun(.beforeTheTrace), "begun", .string("before the trace")),
            (
                .begun(.beforeTheTraceOrWhileLanesWereFull), "begun",
                .string("before the trace, or while its track's lanes were full")
            ),
            (.drawnAsInstant, "drawn", .string("as an instant: 1024 slices overlap on its track")),
            (.endNanoseconds(-3), "end_ns", .int(-3)),
            (.processEnd(.crashed), "end", .string("crashed")),
            (.processEnd(.cleanTerminate), "end", .string("clean-terminate")),
            (.inferred, "inferred", .bool(true)),
        ]
        for (extra, key, value) in expected {
            #expect("\(extra.key)" == key)
            #expect(extra.value == value)
        }
    }

    @Test func valuesKeepTheOrderTheyWereAddedIn() {
        func values(_ extras: ExportExtras) -> [ExportExtra] {
            var values: [ExportExtra] = []
            extras.forEach { values.append($0) }
            return values
        }
        #expect(ExportExtras().isEmpty)
        #expect(values(ExportExtras()).isEmpty)
        var extras = ExportExtras(.inferred)
        extras.append(.drawnAsInstant)
        extras.append(.endNanoseconds(42))
        #expect(extras.count == ExportExtras.capacity)
        #expect(values(extras) == [.inferred, .drawnAsInstant, .endNanoseconds(42)])
        #expect(values(ExportExtras(.dur(7), .returned(true))) == [.dur(7), .returned(true)])
    }
}
