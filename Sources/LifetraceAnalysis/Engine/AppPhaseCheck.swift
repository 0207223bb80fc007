import LifetraceCore

/// How many scenes are in each phase, by the accounting class of their state in the models that follow SwiftUI's
/// scene phases: what SwiftUI's App-level phase is the aggregate of.
struct SceneCensus: Equatable {
    /// Scenes in a state counted as active, inactive or background.
    var active = 0
    var inactive = 0
    var background = 0
    /// Scenes whose phase is not known (a state counted as nothing: one known only from a snapshot).
    var unknown = 0

    /// Counts a scene in a state of accounting class `accounting`.
    mutating func add(_ accounting: ActivationState) {
        switch accounting {
        case .active: active += 1
        case .inactive: inactive += 1
        case .background: background += 1
        case .unattached: unknown += 1
        }
    }

    /// Why the App-level phase `phase` cannot be the aggregate of these scenes (Apple, “ScenePhase”: active “if
    /// any scene is active”, inactive when it “contains no scene instances in the ScenePhase.active phase”,
    /// background when every scene is), or `nil` when it can. A scene of unknown phase supports any. Only a
    /// contradiction the scenes prove is one: none while no scene's phase is in the trace (an app that records
    /// only the App's), and an App inactive while every scene known is in the background is not one, since a
    /// scene connecting starts at an unreported `.inactive` (its phase is known only from its first report).
    func contradiction(of phase: ScenePhase) -> String? {
        guard active + inactive + background + unknown > 0 else { return nil }
        switch phase.state {
        case .unattached:
            return nil  // no phase is: a scene reports none
        case .active:
            return active == 0 && unknown == 0 ? "no scene is active" : nil
        case .inactive:
            return active > 0
                ? "\(Plural.count(active, "scene")) \(Plural.noun(active, "is", plural: "are")) active" : nil
        case .background:
            let foreground = active + inactive
            guard foreground > 0 else { return nil }
            let which = active > 0 ? "active" : "inactive"
            return
                "\(Plural.count(foreground, "scene")) \(Plural.noun(foreground, "is", plural: "are")) in the foreground (\(which))"
        }
    }
}

/// SwiftUI's App-level phase judged against its scenes (LT030), tolerant of the order SwiftUI does not document:
/// the App's `onChange(of: scenePhase)` and a scene's are separate callbacks, either of which may come first. An
/// App-level phase is a contradiction only when its scenes never support it while it holds: neither when it
/// arrives (its scenes moved first) nor after any scene's phase change until the next App-level phase, the
/// process's start or end, or the trace's end (its scenes move after it). The finding is reported then, at that
/// event, naming the App-level phase's own.
struct AppPhaseCheck {
    /// An App-level phase its scenes have contradicted since it arrived: the phase, its event, and why.
    struct Pending: Equatable {
        var phase: ScenePhase
        var index: Int
        var t: Int64
        var reason: String
    }

    /// The App-level phase awaiting its scenes, if its scenes contradicted it so far.
    private(set) var pending: Pending?

    /// Whether an App-level phase awaits its scenes: checked per event, so a stored Boolean.
    private(set) var isPending = false

    /// The App-level phase `phase` arrived at event `index` (time `t`), its scenes as `census` then.
    mutating func appPhase(_ phase: ScenePhase, index: Int, t: Int64, census: SceneCensus) {
        if let reason = census.contradiction(of: phase) {
            pending = Pending(phase: phase, index: index, t: t, reason: reason)
        } else {
            pending = nil
        }
        isPending = pending != nil
    }

    /// A scene's phase changed: its scenes are now `census`. An App-level phase they now support is settled.
    mutating func scenesChanged(_ census: SceneCensus) {
        guard let phase = pending?.phase, census.contradiction(of: phase) == nil else { return }
        pending = nil
        isPending = false
    }

    /// The App-level phase's time is over (a new one, the process's start or end, the trace's end) with its scenes
    /// never supporting it: the contradiction, proven, which is no longer pending.
    mutating func settle() -> Pending? {
        defer {
            pending = nil
            isPending = false
        }
        return pending
    }
}
