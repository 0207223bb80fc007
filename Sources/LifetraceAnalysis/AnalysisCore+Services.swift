// What the analyzer keeps of a service trace's services (ServiceRules) for the summaries.

extension AnalysisCore {
    /// Starts keeping the services of each process that ends, for ``takeServiceLog()``.
    mutating func logServices() {
        services?.log = []
    }

    /// The services of the processes that ended since the last call, and empties the log.
    mutating func takeServiceLog() -> [ServiceLife] {
        guard let log = services?.log, !log.isEmpty else { return [] }
        services?.log = []
        return log
    }
}
