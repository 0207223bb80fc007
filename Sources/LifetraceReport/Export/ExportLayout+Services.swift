import LifetraceAnalysis
import LifetraceCore

/// How the exporter draws a service's lifecycle: its states as slices on its `service NAME state` track, named as
/// a scene's states are, as the HTML report draws its lane (``ServiceLaneState`` maps events to states for both).
extension ExportLayout {
    /// A service event on the lane of `service`: closes the state the service was in (a slice from when it began)
    /// and opens the next. Only services in a state are kept.
    mutating func serviceEvent(_ service: String, _ kind: EventKind, at t: Int64) {
        guard hasProcess else { return }
        var lane = process.serviceStates.removeValue(forKey: service) ?? ServiceLaneState()
        let closed = lane.apply(kind, at: t)
        if lane.open != nil { process.serviceStates[service] = lane }
        if let closed { serviceState(service, closed) }
    }

    /// Closes the states the running process's services are in at `t`, where it ended: by start, then name, so
    /// that stretches begun at once close in the same order every run (a dictionary's is not).
    mutating func servicesEnded(at t: Int64) {
        guard hasProcess, !process.serviceStates.isEmpty else { return }
        let states = process.serviceStates
        process.serviceStates.removeAll()
        var closed: [(service: String, stretch: ServiceLaneState.Stretch)] = []
        for (service, var lane) in states {
            if let stretch = lane.end(at: t) { closed.append((service, stretch)) }
        }
        closed.sort { ($0.stretch.start, $0.service) < ($1.stretch.start, $1.service) }
        for (service, stretch) in closed { serviceState(service, stretch) }
    }

    /// A stretch of `service`'s lifecycle: a slice on its state track.
    private mutating func serviceState(_ service: String, _ stretch: ServiceLaneState.Stretch) {
        stateSlice(
            stretch.state, inferred: false, slot: prepare(.serviceState(service)), from: stretch.start, to: stretch.end)
    }
}
