import Testing

@testable import LifetraceAnalysis

/// Where the UI is, from how many UI instances are in each kind of state: active wins over inactive, which
/// wins over background; with none attached, none.
@Suite struct UICountsTests {
    @Test(
        arguments: [
            ([], LifecycleModel.Accounting.none),
            ([.background], .background),
            ([.inactive], .inactive),
            ([.inactive, .background], .inactive),
            ([.active], .active),
            ([.active, .background], .active),
            ([.active, .inactive], .active),
            ([.active, .inactive, .background], .active),
        ] as [([LifecycleModel.Accounting], LifecycleModel.Accounting)])
    func theForemostStateWins(states: [LifecycleModel.Accounting], expected: LifecycleModel.Accounting) {
        var counts = UICounts()
        // Instances that come and go leave no trace: two of each, one removed again.
        for state in states {
            counts.add(state, 1)
            counts.add(state, 1)
            counts.add(state, -1)
        }
        counts.add(.none, 1)
        #expect(counts.state == expected)
        for state in states { counts.add(state, -1) }
        #expect(counts.state == LifecycleModel.Accounting.none)
    }

    /// Each accounting has its own index, and the index maps back.
    @Test func accountingIndexesRoundTrip() {
        let all: [LifecycleModel.Accounting] = [.none, .active, .inactive, .background]
        #expect(all.map(\.index) == [0, 1, 2, 3])
        #expect(all.map { LifecycleModel.Accounting(index: $0.index) } == all)
        #expect(LifecycleModel.Accounting(index: 7) == LifecycleModel.Accounting.none)
    }
}
