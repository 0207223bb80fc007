import LifetraceCore
import Testing

@testable import LifetraceAnalysis

/// Where the UI is, from how many UI instances are in each kind of state: active wins over inactive, which
/// wins over background; with none attached, unattached.
@Suite struct UICountsTests {
    @Test(
        arguments: [
            ([], ActivationState.unattached),
            ([.background], .background),
            ([.inactive], .inactive),
            ([.inactive, .background], .inactive),
            ([.active], .active),
            ([.active, .background], .active),
            ([.active, .inactive], .active),
            ([.active, .inactive, .background], .active),
        ] as [([ActivationState], ActivationState)])
    func theForemostStateWins(states: [ActivationState], expected: ActivationState) {
        var counts = UICounts()
        // Instances that come and go leave no trace: two of each, one removed again.
        for state in states {
            counts.add(state, 1)
            counts.add(state, 1)
            counts.add(state, -1)
        }
        counts.add(.unattached, 1)
        #expect(counts.state == expected)
        for state in states { counts.add(state, -1) }
        #expect(counts.state == ActivationState.unattached)
    }
}
