/// Where a scene, or an app's one window, is in its lifecycle: UIKit's `UIScene.ActivationState`.
///
/// The one type of the lifecycle's state, from the recording to the report: the SwiftUI phases events carry
/// (``ScenePhase``, the three attached states), the simulator's scenes, the state the importer derives from a log,
/// what a model state's time counts as in the analyzer (its `accounting`, where `unattached` is spelt `none`), and
/// the stretches of the timelines and exports.
///
/// The raw values of the attached states are the bytes the binary format stores for a scene phase (0, 1, 2);
/// `unattached`, which no event carries, is 3. A small number, compared and indexed with no branch.
public enum ActivationState: UInt8, CaseIterable, Hashable, Sendable, BitwiseCopyable {
    /// In the foreground and receiving events (`UIScene.ActivationState.foregroundActive`).
    case active = 0
    /// In the foreground but not receiving events (`foregroundInactive`).
    case inactive = 1
    /// Not visible, running in the background (`background`).
    case background = 2
    /// Not attached (`unattached`): a scene not connected, or a process whose UI has not yet said where it is. In
    /// an analyzer model's accounting, time counted as none of the others (`none`).
    case unattached = 3

    /// The state's name: `active`, `inactive`, `background` (as events and reports write them) or `unattached`.
    public var name: String {
        switch self {
        case .active: "active"
        case .inactive: "inactive"
        case .background: "background"
        case .unattached: "unattached"
        }
    }

    /// Looks a state up by its ``name``.
    public init?(name: String) {
        switch name {
        case "active": self = .active
        case "inactive": self = .inactive
        case "background": self = .background
        case "unattached": self = .unattached
        default: return nil
        }
    }

    /// Whether the state is in the foreground: `active` or `inactive`.
    @inlinable
    public var isForeground: Bool { rawValue < ActivationState.background.rawValue }
}
