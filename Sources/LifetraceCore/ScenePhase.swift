/// A SwiftUI scene phase, as `swiftui.scenePhase` events carry it: an ``ActivationState`` a scene can report,
/// never ``ActivationState/unattached`` (SwiftUI has no such phase), so that no event can carry one.
///
/// Its raw value is the state's, the byte the binary format stores (`active` 0, `inactive` 1, `background` 2),
/// and its name the state's, the JSON name (`active`, `inactive`, `background`).
public struct ScenePhase: RawRepresentable, CaseIterable, Hashable, Sendable, BitwiseCopyable {
    /// The activation state the phase is: never `unattached`.
    public let state: ActivationState

    /// The phase of `state`, known not to be `unattached`.
    @usableFromInline
    init(unchecked state: ActivationState) {
        self.state = state
    }

    /// The phase of `state`; `nil` for `unattached`.
    @inlinable
    public init?(_ state: ActivationState) {
        guard state != .unattached else { return nil }
        self.state = state
    }

    /// The scene is in the foreground and interactive.
    @inlinable public static var active: ScenePhase { ScenePhase(unchecked: .active) }
    /// The scene is in the foreground but not receiving events.
    @inlinable public static var inactive: ScenePhase { ScenePhase(unchecked: .inactive) }
    /// The scene is not visible.
    @inlinable public static var background: ScenePhase { ScenePhase(unchecked: .background) }

    /// The three phases: `active`, `inactive`, `background`.
    public static var allCases: [ScenePhase] { [.active, .inactive, .background] }

    /// The phase's byte in the binary format: its state's raw value.
    @inlinable public var rawValue: UInt8 { state.rawValue }

    /// The phase whose byte is `rawValue`; `nil` for any but 0, 1 and 2.
    @inlinable
    public init?(rawValue: UInt8) {
        guard let state = ActivationState(rawValue: rawValue) else { return nil }
        self.init(state)
    }

    /// The phase's JSON name.
    public var name: String { state.name }

    /// Looks a phase up by its JSON name (`unattached` names none).
    public init?(name: String) {
        guard let state = ActivationState(name: name) else { return nil }
        self.init(state)
    }

    /// Whether `a` and `b` are the same phase.
    @inlinable
    public static func == (a: ScenePhase, b: ScenePhase) -> Bool {
        a.state == b.state
    }
}
