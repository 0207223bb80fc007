/// A service's time in each phase of its lifecycle, in nanoseconds, from its `service.*` events: what a service
/// process reports where an app reports foreground, background and suspended time (a server is never suspended).
public struct ServiceTimes: Sendable, Hashable {
    /// From its start to its readiness (to its shutdown request, stop or process's end when it never said it
    /// was ready).
    public var starting: Int64 = 0
    /// From its readiness to its shutdown request (or its stop, or its process's end).
    public var running: Int64 = 0
    /// From its shutdown request to its stop (or its process's end: a drain the kill cut).
    public var stopping: Int64 = 0

    /// Creates zero times.
    public init() {}

    /// Creates the times given.
    public init(starting: Int64, running: Int64, stopping: Int64) {
        self.starting = starting
        self.running = running
        self.stopping = stopping
    }

    /// Adds the times of `other`, saturating (services run side by side: their sum may exceed the trace's span).
    public mutating func add(_ other: ServiceTimes) {
        starting = Self.sum(starting, other.starting)
        running = Self.sum(running, other.running)
        stopping = Self.sum(stopping, other.stopping)
    }

    private static func sum(_ a: Int64, _ b: Int64) -> Int64 {
        let (total, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : total
    }
}

/// One service's times, summed over the processes of a trace that ran it.
public struct ServiceTime: Sendable, Hashable {
    /// The service's name (the scene of its events); `(other services)` for those past the first
    /// ``TraceAnalyzer/keptDetails``.
    public var service: String
    /// Its time in each phase.
    public var times: ServiceTimes

    /// Creates the times of `service`.
    public init(service: String, times: ServiceTimes) {
        self.service = service
        self.times = times
    }
}

extension ServiceLife {
    /// Its time in each phase, its process having ended at `end`; zero for a service whose start the trace does
    /// not show. Each phase ends where the next began, or at its stop, or at `end`.
    func times(until end: Int64) -> ServiceTimes {
        guard let started else { return ServiceTimes() }
        let close = max(started, stopped ?? end)
        let asked = shutdownAsked.map { min(max($0, started), close) }
        let ready = self.ready.map { min(max($0, started), asked ?? close) }
        var times = ServiceTimes()
        times.starting = (ready ?? asked ?? close) &- started
        if let ready { times.running = (asked ?? close) &- ready }
        if let asked { times.stopping = close &- asked }
        return times
    }
}
