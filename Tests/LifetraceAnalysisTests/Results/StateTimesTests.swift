import LifetraceCore
import Testing

@testable import LifetraceAnalysis

@Suite struct StateTimesTests {
    /// Time goes to the state it is counted as, and nowhere else; `unattached` counts nowhere.
    @Test(
        arguments: [
            (ActivationState.active, [7, 0, 0]),
            (.inactive, [0, 7, 0]),
            (.background, [0, 0, 7]),
            (.unattached, [0, 0, 0]),
        ] as [(ActivationState, [Int64])])
    func timeGoesToItsState(accounting: ActivationState, expected: [Int64]) {
        var times = StateTimes()
        times.add(7, as: accounting)
        #expect([times.active, times.inactive, times.background] == expected)
        #expect(times.suspended == 0)
    }

    /// Sums saturate at the ends of the 64-bit range.
    @Test func sumsSaturate() {
        var times = StateTimes()
        times.active = .max - 1
        times.suspended = 5
        var other = StateTimes()
        other.active = 2
        other.suspended = 6
        times.add(other)
        #expect(times.active == .max)
        #expect(times.suspended == 11)
    }
}
