package import LifetraceAnalysis
package import LifetraceCore

/// The state one service's lane is in, and since when: what the HTML report and the exports draw as a service's
/// lifecycle, from one mapping so that the two cannot disagree.
///
/// A service is `starting` from its `service.start`, `running` from its `service.ready` and `stopping` from its
/// `service.shutdown`, and in no state from its `service.stopped` (whether its `run()` returned or threw): the
/// phases swift-service-lifecycle's `ServiceGroup` takes a service through. Any other service event on its lane
/// closes the open state; events out of order (LT096) move the lane as they say. The state still open when the
/// process ends closes there (``ServiceLaneState/end(at:)``).
package struct ServiceLaneState: Sendable {
    /// One stretch of a service's lane in one state.
    package struct Stretch: Sendable, Equatable {
        /// `starting`, `running` or `stopping`.
        package var state: TimelineState
        /// When the state began (ns).
        package var start: Int64
        /// When the next transition, the service's stop or its process's end closed it (ns).
        package var end: Int64
    }

    /// The open state and when it began; `nil` before the service's first event and after its stop.
    package private(set) var open: (state: TimelineState, since: Int64)?

    /// A service whose lane holds nothing yet.
    package init() {}

    /// The state a service is in after an event of `kind` on its lane; `nil` for none (its stop, or any other
    /// event).
    package static func state(after kind: EventKind) -> TimelineState? {
        switch kind {
        case .serviceStart: .starting
        case .serviceReady: .running
        case .serviceShutdown: .stopping
        default: nil
        }
    }

    /// Moves the lane on an event of `kind` at `t`.
    /// - Returns: the stretch the event closes, if a state was open and lasted.
    package mutating func apply(_ kind: EventKind, at t: Int64) -> Stretch? {
        let closed = end(at: t)
        if let next = Self.state(after: kind) { open = (next, t) }
        return closed
    }

    /// Closes the open state at `t` (its process ended, or the trace did).
    /// - Returns: the stretch closed, if a state was open and lasted (a state left at once draws nothing).
    package mutating func end(at t: Int64) -> Stretch? {
        guard let (state, since) = open else { return nil }
        open = nil
        return t > since ? Stretch(state: state, start: since, end: t) : nil
    }
}
