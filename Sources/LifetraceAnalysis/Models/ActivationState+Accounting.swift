import LifetraceCore

// What the time spent in a model's state counts as is an ActivationState: `unattached` counts as none of the others
// (a model spells it `none`). These are the analyzer's views of it: how far in the foreground it is, and its
// spelling in a model. Its tables (UICounts, StateTimes) are laid out by its raw value.

extension ActivationState {
    /// How far in the foreground: `unattached` 0, `background` 1, `inactive` 2, `active` 3 (where an aggregate of
    /// several instances is, is that of the most foreground).
    var foregroundRank: Int {
        switch self {
        case .unattached: 0
        case .background: 1
        case .inactive: 2
        case .active: 3
        }
    }

    /// The state a model's `accounting` names: `none` (counted as nothing: `unattached`), `active`, `inactive` or
    /// `background`; `nil` for any other name.
    init?(accounting name: String) {
        switch name {
        case "none": self = .unattached
        case ActivationState.unattached.name: return nil
        default: self.init(name: name)
        }
    }
}
