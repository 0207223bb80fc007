/// A service's life in one process, as summaries report it: when it started, said it was ready, was asked to shut
/// down and stopped (`nil`: the trace does not show it), and how it ended. ``ServiceRules`` keeps one per service
/// of the running process and logs it when the process ends.
package struct ServiceLife: Sendable, Equatable {
    /// The process's number in the trace, from 1 (a `process.launch`, or any event after an exit, starts one).
    package var process: Int
    /// The service's name.
    package var name: String
    /// When its `service.start` came.
    package var started: Int64?
    /// When it said it was ready.
    package var ready: Int64?
    /// When its group asked it to shut down.
    package var shutdownAsked: Int64?
    /// When it stopped.
    package var stopped: Int64?
    /// The error it threw, if it did.
    package var error: String?
    /// Whether its task had been cancelled when it stopped.
    package var cancelled = false

    /// From its start to its readiness.
    package var readyDuration: Int64? { started.flatMap { start in ready.map { $0 &- start } } }
    /// From its readiness to its shutdown request (its stop, when it stopped unasked): its time serving.
    package var runningDuration: Int64? { ready.flatMap { ready in (shutdownAsked ?? stopped).map { $0 &- ready } } }
    /// From its shutdown request to its stop: the time an orchestrator's grace period bounds.
    package var shutdownDuration: Int64? { shutdownAsked.flatMap { asked in stopped.map { $0 &- asked } } }
}
