/// The state of a scene (or, without scenes, of the app's one window): UIScene.ActivationState plus unattached.
enum UIState: Equatable {
    case unattached
    case background
    case inactive
    case active

    var isForeground: Bool { self == .inactive || self == .active }
}

/// What the process is doing; suspension is invisible to the app, so only ground truth tells of it.
enum ProcessPhase: Equatable {
    case notRunning
    case running
    case suspended
}

/// One scene session the model tracks.
struct SceneSlot {
    var id: String
    var state: UIState = .unattached
    /// The session was connected before (reconnecting does not ask for a configuration again).
    var everConnected = false
    /// The SwiftUI phase last reported by `onChange` (scenes start `.inactive`, unreported).
    var reportedPhase: UIState = .inactive
}
