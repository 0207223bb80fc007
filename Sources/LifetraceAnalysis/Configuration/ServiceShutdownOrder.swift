/// How a service process's group shuts its services down (`serviceShutdownOrder` in `lifetrace.json`), which
/// LT097 holds a trace to.
public enum ServiceShutdownOrder: String, Sendable, Equatable, CaseIterable {
    /// As swift-service-lifecycle's `ServiceGroup` does, the default: one service at a time, in reverse start
    /// order, each asked only once the one asked before it has returned from `run()`.
    case reverseStart = "reverse-start"
    /// In any order, several at once: an orchestrator that stops its services otherwise (LT097 is not checked).
    case any
}
