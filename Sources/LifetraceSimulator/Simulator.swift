public import LifetraceCore

/// Produces realistic lifecycle traces from a model of the iOS process and its scenes.
///
/// The same configuration (seed included) always produces the same events.
///
/// ```swift
/// let simulator = Simulator(configuration: .init(scenario: .backgroundAndReturn, seed: 7))
/// try simulator.run { event in try writer.append(event) }
/// ```
public struct Simulator: Sendable {
    /// What to simulate.
    public struct Configuration: Sendable {
        /// The stimulus script.
        public var scenario: Scenario
        /// How the app receives its lifecycle.
        public var style: AppStyle
        /// The seed of every random draw.
        public var seed: UInt64
        /// Whether to write `process.suspend`, `process.resume` and `process.exit`, which a real app cannot see.
        public var groundTruth: Bool
        /// If set, a `heartbeat` at this interval (ns) while the process runs.
        public var heartbeatInterval: Int64?
        /// The mistakes to inject.
        public var faults: [Fault]
        /// For `random`: stop once at least this many events were written.
        public var minimumEvents: Int?
        /// For `random`: stop once the trace is at least this long (ns).
        public var minimumDuration: Int64?
        /// Callbacks whose handlers take this many times as long as the timing model draws: a slower build.
        public var slowedHandlers: [EventKind: Double]

        /// Creates a configuration; the style defaults to the scenario's.
        public init(
            scenario: Scenario,
            style: AppStyle? = nil,
            seed: UInt64 = 1,
            groundTruth: Bool = false,
            heartbeatInterval: Int64? = nil,
            faults: [Fault] = [],
            minimumEvents: Int? = nil,
            minimumDuration: Int64? = nil,
            slowedHandlers: [EventKind: Double] = [:]
        ) {
            self.scenario = scenario
            self.style = style ?? scenario.defaultStyle
            self.seed = seed
            self.groundTruth = groundTruth
            self.heartbeatInterval = heartbeatInterval
            self.faults = faults
            self.minimumEvents = minimumEvents
            self.minimumDuration = minimumDuration
            self.slowedHandlers = slowedHandlers
        }
    }

    /// The configuration.
    public let configuration: Configuration

    /// Creates a simulator.
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// The trace header: the app, its scene manifest, and what was simulated, so a test can score an analyzer.
    public var header: TraceHeader {
        var header = TraceHeader(
            clock: .continuous, startUnixNanoseconds: 1_763_700_000_000_000_000,
            app: "com.example.simulated", sceneManifest: configuration.style.hasSceneManifest)
        header[.source] = .string("simulator")
        header[.scenario] = .string(configuration.scenario.rawValue)
        header.appStyle = configuration.style
        header[.seed] = .int(Int64(bitPattern: configuration.seed))
        header[.faults] = .array(configuration.faults.map { .string($0.rawValue) })
        header[.groundTruth] = .bool(configuration.groundTruth)
        header.heartbeatNanoseconds = configuration.heartbeatInterval
        if !configuration.slowedHandlers.isEmpty {
            header[metadata: "slowed"] = .object(
                configuration.slowedHandlers.sorted { $0.key.name < $1.key.name }
                    .map { (key: $0.key.name, value: .double($0.value)) })
        }
        return header
    }

    /// Runs the simulation, passing each event to `sink` in time order; returns the number of events.
    @discardableResult
    public func run(_ sink: @escaping (LifecycleEvent) throws -> Void) throws -> Int {
        var model = SimulatedProcess(
            style: configuration.style, faults: Set(configuration.faults), groundTruth: configuration.groundTruth,
            heartbeatInterval: configuration.heartbeatInterval, seed: configuration.seed, sink: sink)
        model.slowedHandlers = configuration.slowedHandlers
        if configuration.scenario == .random {
            let events = configuration.minimumEvents
            let duration = configuration.minimumDuration
            let bounded = events != nil || duration != nil
            try model.randomWalk { model in
                if let events, model.eventCount >= events { return true }
                if let duration, model.t >= duration { return true }
                return !bounded && model.eventCount >= 1000
            }
        } else {
            try model.play(configuration.scenario)
        }
        return model.eventCount
    }
}
