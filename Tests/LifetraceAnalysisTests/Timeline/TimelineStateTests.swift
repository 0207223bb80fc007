import LifetraceCore
import Testing

@testable import LifetraceAnalysis

/// A stretch's state is an activation state, `suspended` or a service lane's: a byte, numbered for the exports'
/// tables in the order of its cases, named as the reports write it.
@Suite struct TimelineStateTests {
    @Test func theStatesAreNumberedInOrderAndNamed() {
        #expect(TimelineState.allCases.map(\.index) == Array(0..<7))
        #expect(
            TimelineState.allCases.map(\.name) == [
                "active", "inactive", "background", "suspended", "starting", "running", "stopping",
            ])
        #expect(MemoryLayout<TimelineState>.size == 1)
    }

    /// What a state's time counts as is drawn as that state; with no UI attached, as the background.
    @Test func aStretchWithNoUIAttachedIsDrawnInTheBackground() {
        #expect(
            ActivationState.allCases.map(\.timelineState) == [
                .activation(.active), .activation(.inactive), .activation(.background), .activation(.background),
            ])
        #expect(TimelineState.activation(.unattached).index == TimelineState.activation(.background).index)
        #expect(TimelineState.activation(.unattached).name == "background")
    }

    /// A model's `accounting` spells the state without UI `none`; `unattached` is not one of its names.
    @Test func aModelsAccountingNamesTheStates() {
        #expect(ActivationState(accounting: "none") == .unattached)
        #expect(ActivationState(accounting: "active") == .active)
        #expect(ActivationState(accounting: "inactive") == .inactive)
        #expect(ActivationState(accounting: "background") == .background)
        #expect(ActivationState(accounting: "unattached") == nil && ActivationState(accounting: "suspended") == nil)
    }
}
