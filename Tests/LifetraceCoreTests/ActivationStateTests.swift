import LifetraceCore
import Testing

/// The one activation state, and the SwiftUI phases events carry as the three attached ones: the phases' bytes
/// (0, 1, 2) and names are the format's, and no phase is `unattached`.
@Suite struct ActivationStateTests {
    @Test func eachStateHasItsRawValueAndName() {
        #expect(ActivationState.allCases.map(\.rawValue) == [0, 1, 2, 3])
        #expect(ActivationState.allCases.map(\.name) == ["active", "inactive", "background", "unattached"])
        #expect(ActivationState.allCases.allSatisfy { ActivationState(name: $0.name) == $0 })
        #expect(ActivationState(name: "none") == nil && ActivationState(name: "Active") == nil)
        #expect(ActivationState.allCases.filter(\.isForeground) == [.active, .inactive])
    }

    @Test func thePhasesAreTheAttachedStatesWithTheFormatsBytesAndNames() {
        #expect(ScenePhase.allCases.map(\.state) == [.active, .inactive, .background])
        #expect(ScenePhase.allCases.map(\.rawValue) == [0, 1, 2])
        #expect(ScenePhase.allCases.map(\.name) == ["active", "inactive", "background"])
        for phase in ScenePhase.allCases {
            #expect(ScenePhase(rawValue: phase.rawValue) == phase)
            #expect(ScenePhase(name: phase.name) == phase)
            #expect(ScenePhase(phase.state) == phase)
        }
    }

    @Test func noPhaseIsUnattached() {
        #expect(ScenePhase(.unattached) == nil)
        #expect(ScenePhase(rawValue: ActivationState.unattached.rawValue) == nil)
        #expect(ScenePhase(rawValue: 4) == nil && ScenePhase(rawValue: 255) == nil)
        #expect(ScenePhase(name: "unattached") == nil && ScenePhase(name: "none") == nil)
        #expect(MemoryLayout<ScenePhase?>.size == 1)
    }
}
