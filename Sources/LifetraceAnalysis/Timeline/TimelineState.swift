/// The state a stretch of a timeline is in: of a process or a scene (`active`, `inactive`, `background`,
/// `suspended`) or of a service's lane (`starting`, `running`, `stopping`, ``ServiceLaneState``).
///
/// What the analyzer tells its ``TimelineObserver`` for each stretch: a small number rather than a string, so that
/// an observer of millions of stretches (an export) finds what it derives from a state by its number, with no
/// string built, hashed or compared per stretch.
package enum TimelineState: UInt8, Sendable, CaseIterable {
    /// The app (or scene) in the foreground, receiving events.
    case active
    /// In the foreground, not receiving events.
    case inactive
    /// In the background, running.
    case background
    /// Suspended: recorded, or inferred from silence.
    case suspended
    /// A service from its start to its readiness.
    case starting
    /// A service from its readiness to its shutdown request.
    case running
    /// A service from its shutdown request to its stop.
    case stopping

    /// The state's name as the reports and exports write it (``Timeline/Segment/state``).
    package var name: String {
        switch self {
        case .active: "active"
        case .inactive: "inactive"
        case .background: "background"
        case .suspended: "suspended"
        case .starting: "starting"
        case .running: "running"
        case .stopping: "stopping"
        }
    }
}

extension LifecycleModel.Accounting {
    /// The state of a stretch counted as this: `none` (no UI attached) as `background`, where a running process
    /// with no UI counts its time.
    var timelineState: TimelineState {
        switch self {
        case .active: .active
        case .inactive: .inactive
        case .background, .none: .background
        }
    }
}
