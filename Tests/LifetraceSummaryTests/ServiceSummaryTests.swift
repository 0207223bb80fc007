import LifetraceCore
import LifetraceFormat
import LifetraceSimulator
import LifetraceSummary
import LifetraceTestSupport
import Testing

/// Service rows and the shutdown metric, in process: the durations each row gives are those of the simulated
/// events themselves, and `compare`'s statistics gate a build whose drains got slower.
@Suite struct ServiceSummaryTests {
    let directory = TemporaryDirectory()

    /// Simulates `configuration` into a trace file; returns its path and the events written.
    func simulate(_ configuration: ServiceSimulator.Configuration, name: String) throws -> (String, [LifecycleEvent]) {
        let path = directory.file(name)
        let simulator = ServiceSimulator(configuration: configuration)
        let writer = try makeEventWriter(path: path, header: simulator.header)
        var events: [LifecycleEvent] = []
        try simulator.run { event in
            events.append(event)
            try writer.append(event)
        }
        try writer.close()
        return (path, events)
    }

    /// What the events say of each service, computed here from the events alone: per process (a launch, or any
    /// event after an exit, starts one) and service in order of appearance, the first start, readiness, shutdown
    /// request and stop.
    static func groundTruth(_ events: [LifecycleEvent]) -> [ServiceColumns] {
        var rows: [ServiceColumns] = []
        var process = 0
        var alive = false
        var first = 0
        for event in events {
            if event.kind == .processLaunch || !alive {
                (process, alive, first) = (process + 1, true, rows.count)
            }
            if event.kind == .processExit { alive = false }
            let kinds: [EventKind] = [.serviceStart, .serviceReady, .serviceShutdown, .serviceStopped]
            guard kinds.contains(event.kind), let name = event.scene else { continue }
            let index =
                rows[first...].firstIndex { $0.service == name }
                ?? {
                    var row = ServiceColumns()
                    (row.process, row.service, row.stopped, row.cancelled) = (Int64(process), name, false, false)
                    rows.append(row)
                    return rows.count - 1
                }()
            switch event.kind {
            case .serviceStart: rows[index].start = rows[index].start ?? event.t
            case .serviceReady:
                if rows[index].ready == nil, let start = rows[index].start { rows[index].ready = event.t - start }
            case .serviceShutdown:
                // Running: from its readiness to its first shutdown request.
                if rows[index].shutdownT == nil, let start = rows[index].start, let ready = rows[index].ready {
                    rows[index].running = event.t - (start + ready)
                }
                rows[index].shutdownT = rows[index].shutdownT ?? event.t
            default:
                guard rows[index].stopped == false else { continue }
                rows[index].stopped = true
                // Running to its stop when it was never asked.
                if rows[index].shutdownT == nil, let start = rows[index].start, let ready = rows[index].ready {
                    rows[index].running = event.t - (start + ready)
                }
                if let asked = rows[index].shutdownT { rows[index].shutdown = event.t - asked }
                rows[index].error = event.attrs?.first { $0.key == Attribute.Key.error }.flatMap {
                    if case let .string(text) = $0.value { text } else { nil }
                }
                rows[index].cancelled =
                    event.attrs?.contains { $0.key == Attribute.Key.cancelled && $0.value == .bool(true) } ?? false
            }
        }
        return rows
    }

    @Test(arguments: ServiceScenario.allCases)
    func serviceRowsGiveTheDurationsOfTheEvents(scenario: ServiceScenario) throws {
        for groundTruth in [false, true] {
            let (path, events) = try simulate(
                .init(scenario: scenario, seed: 11, groundTruth: groundTruth),
                name: "\(scenario.rawValue)-\(groundTruth).lifetrace")
            var summarizer = TraceSummarizer()
            var services: [ServiceColumns] = []
            summarizer.summarize(path: path) { row in
                if case let .service(columns) = row.columns { services.append(columns) }
            }
            let expected = Self.groundTruth(events)
            #expect(!expected.isEmpty)
            #expect(services == expected, "\(scenario) ground truth \(groundTruth)")
        }
    }

    /// The observations of twenty rolling deploys whose drains take `drain` times as long, from seed `first`.
    func observations(firstSeed first: UInt64, drain: Double) throws -> SummaryObservations {
        var summarizer = TraceSummarizer()
        var rows = ObservedRows()
        for seed in first..<(first + 20) {
            let (path, _) = try simulate(
                .init(scenario: .rollingDeploy, seed: seed, drainFactor: drain), name: "deploy-\(seed).lifetrace")
            #expect(summarizer.summarize(path: path, into: &rows))
        }
        rows.observations.finish()
        return rows.observations
    }

    /// Drains 1.5 times as long regress `shutdown worker` and fail the gate; a build drawn from the same model
    /// does not.
    @Test func aSlowerDrainRegressesTheShutdownMetric() throws {
        let base = try observations(firstSeed: 1, drain: 1)
        let slower = BuildComparison(base: base, new: try observations(firstSeed: 1001, drain: 1.5))
        let worker = try #require(slower.rows.first { $0.metric == ComparedMetric(.shutdown, "worker") })
        #expect(worker.verdict == .regression && worker.gates && slower.hasRegression)
        #expect(worker.base.count == 20 && worker.new.count == 20)
        let change = try #require(worker.change)
        #expect(change > 0.3 && change < 0.7, "about 50 % slower: \(change)")
        let same = BuildComparison(base: base, new: try observations(firstSeed: 501, drain: 1))
        #expect(!same.hasRegression)
        #expect(same.rows.contains { $0.metric == ComparedMetric(.shutdown, "worker") && $0.verdict != .insufficient })
    }
}
