/// A SwiftUI scene phase, as `swiftui.scenePhase` events carry it.
public enum ScenePhase: UInt8, CaseIterable, Hashable, Sendable, BitwiseCopyable {
    /// The scene is in the foreground and interactive.
    case active = 0
    /// The scene is in the foreground but not receiving events.
    case inactive = 1
    /// The scene is not visible.
    case background = 2

    /// The phase's JSON name.
    public var name: String {
        switch self {
        case .active: "active"
        case .inactive: "inactive"
        case .background: "background"
        }
    }

    /// Looks a phase up by its JSON name.
    public init?(name: String) {
        switch name {
        case "active": self = .active
        case "inactive": self = .inactive
        case "background": self = .background
        default: return nil
        }
    }
}
