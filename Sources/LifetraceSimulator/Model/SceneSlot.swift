import LifetraceCore

/// One scene session the model tracks (without scenes, the app's one window).
struct SceneSlot {
    var id: String
    var state: ActivationState = .unattached
    /// The session was connected before (reconnecting does not ask for a configuration again).
    var everConnected = false
    /// The SwiftUI phase last reported by `onChange` (scenes start `.inactive`, unreported).
    var reportedPhase: ActivationState = .inactive
}
