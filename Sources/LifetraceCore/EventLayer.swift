/// The layer of the lifecycle an event belongs to.
///
/// The process layer is the app delegate's; the UI layer is the scene delegate's or SwiftUI's.
public enum EventLayer: String, CaseIterable, Hashable, Sendable {
    /// App delegate callbacks (`app.*`).
    case app
    /// Scene delegate callbacks (`scene.*`).
    case scene
    /// SwiftUI `scenePhase` changes.
    case swiftui
    /// Background execution: `task.*`, `bg.refresh.*`, `bg.processing.*`.
    case task
    /// Process launch, exit, suspension and resumption.
    case process
    /// What the system or a recorder observes: snapshots, heartbeats, dropped events.
    case system
    /// A service's lifecycle (`service.*`): each named service's start, readiness, shutdown and stop, and the
    /// signals its group handles.
    case service
    /// User markers (`custom.*`).
    case custom
}
