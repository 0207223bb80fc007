package import LifetraceCore

/// The state a stretch of a timeline is in: of a process or a scene (an ``ActivationState``, or `suspended`) or of
/// a service's lane (`starting`, `running`, `stopping`, ``ServiceLaneState``).
///
/// What the analyzer tells its ``TimelineObserver`` for each stretch: a byte rather than a string, so that an
/// observer of millions of stretches (an export) finds what it derives from a state by its ``index``, with no
/// string built, hashed or compared per stretch.
package enum TimelineState: Hashable, Sendable, BitwiseCopyable, CaseIterable {
    /// A process or a scene running in the foreground (`active`, `inactive`) or in the background. A stretch with
    /// no UI attached is counted as in the background (``ActivationState/timelineState``), and `unattached` here
    /// is taken for `background`.
    case activation(ActivationState)
    /// Suspended: recorded, or inferred from silence.
    case suspended
    /// A service from its start to its readiness.
    case starting
    /// A service from its readiness to its shutdown request.
    case running
    /// A service from its shutdown request to its stop.
    case stopping

    /// Every state a stretch is drawn in, in the order of their ``index``.
    package static var allCases: [TimelineState] {
        [
            .activation(.active), .activation(.inactive), .activation(.background), .suspended, .starting, .running,
            .stopping,
        ]
    }

    /// The state's place among ``allCases``, for tables of every state: `active` 0, `inactive` 1, `background` 2
    /// (the activation state's raw value), `suspended` 3, `starting` 4, `running` 5, `stopping` 6.
    @inline(__always)
    package var index: Int {
        switch self {
        case .activation(let state): Int(min(state.rawValue, ActivationState.background.rawValue))
        case .suspended: 3
        case .starting: 4
        case .running: 5
        case .stopping: 6
        }
    }

    /// The state's name as the reports and exports write it (``Timeline/Segment/state``): the activation state's
    /// (`active`, `inactive`, `background`), `suspended`, or the service's lane's.
    package var name: String {
        switch self {
        case .activation(.unattached): ActivationState.background.name
        case .activation(let state): state.name
        case .suspended: "suspended"
        case .starting: "starting"
        case .running: "running"
        case .stopping: "stopping"
        }
    }
}

extension ActivationState {
    /// The state of a stretch counted as this: `unattached` (no UI attached) as `background`, where a running
    /// process with no UI counts its time.
    var timelineState: TimelineState {
        .activation(self == .unattached ? .background : self)
    }
}
