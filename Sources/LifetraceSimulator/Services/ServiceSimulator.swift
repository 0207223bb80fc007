public import LifetraceCore

/// Produces the trace a service process records (``ServiceScenario``) with seeded timing: the same configuration
/// always produces the same events.
///
/// ```swift
/// let simulator = ServiceSimulator(configuration: .init(scenario: .slowDrain, seed: 7))
/// try simulator.run { event in try writer.append(event) }
/// ```
public struct ServiceSimulator: Sendable {
    /// What to simulate.
    public struct Configuration: Sendable {
        /// The scenario.
        public var scenario: ServiceScenario
        /// The seed of every random draw.
        public var seed: UInt64
        /// Whether to write the `process.exit` of a process its supervisor killed, which it cannot record itself.
        public var groundTruth: Bool
        /// The heartbeat (and flush) interval while a process runs, in nanoseconds: `LifetraceServiceLifecycle`'s
        /// default is one second.
        public var heartbeatInterval: Int64
        /// Each service's drain (its shutdown request to its stop) takes this many times as long: a slower build.
        public var drainFactor: Double
        /// Each service's start-up (its start to its readiness) takes this many times as long.
        public var readyFactor: Double

        /// Creates a configuration.
        public init(
            scenario: ServiceScenario, seed: UInt64 = 1, groundTruth: Bool = false,
            heartbeatInterval: Int64 = 1_000_000_000, drainFactor: Double = 1, readyFactor: Double = 1
        ) {
            self.scenario = scenario
            self.seed = seed
            self.groundTruth = groundTruth
            self.heartbeatInterval = heartbeatInterval
            self.drainFactor = drainFactor
            self.readyFactor = readyFactor
        }
    }

    /// The configuration.
    public let configuration: Configuration

    /// Creates a simulator.
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// The trace header: a service process (`"lifecycle": "service"`), what was simulated, and, when nothing was
    /// slowed, the rules `check` must find (`expected_rules`) and each process's exit (`expected_exits`), so a
    /// test can score the analyzer.
    public var header: TraceHeader {
        var header = TraceHeader(
            clock: .continuous, startUnixNanoseconds: 1_763_700_000_000_000_000, app: "example-service")
        header.lifecycle = .service
        header[.source] = .string("simulator")
        header[.scenario] = .string(configuration.scenario.rawValue)
        header[.seed] = .int(Int64(bitPattern: configuration.seed))
        header[.groundTruth] = .bool(configuration.groundTruth)
        header.heartbeatNanoseconds = configuration.heartbeatInterval
        if configuration.drainFactor == 1, configuration.readyFactor == 1 {
            header[metadata: "expected_rules"] = .array(configuration.scenario.expectedRules.map { .string($0) })
            header[metadata: "expected_exits"] = .array(configuration.scenario.exitReasons.map { .string($0) })
        } else {
            header[metadata: "slowed"] = .object([
                (key: EventKind.serviceReady.name, value: .double(configuration.readyFactor)),
                (key: EventKind.serviceShutdown.name, value: .double(configuration.drainFactor)),
            ])
        }
        return header
    }

    /// Runs the simulation, passing each event to `sink` in time order; returns the number of events.
    @discardableResult
    public func run(_ sink: @escaping (LifecycleEvent) throws -> Void) throws -> Int {
        var model = SimulatedServiceProcess(
            scenario: configuration.scenario, groundTruth: configuration.groundTruth,
            heartbeatInterval: configuration.heartbeatInterval, drainFactor: configuration.drainFactor,
            readyFactor: configuration.readyFactor, seed: configuration.seed, sink: sink)
        try model.play()
        return model.eventCount
    }
}
