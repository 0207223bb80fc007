import ArgumentParser
import LifetraceCore
import LifetraceFormat
import LifetraceSimulator
import LifetraceZstd

/// `lifetrace simulate`: writes a realistic trace of a documented lifecycle sequence.
struct Simulate: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Write a simulated lifecycle trace: a documented sequence, a random walk, with faults if asked.",
        discussion: """
            The simulator models the iOS process and its scenes and writes the callbacks an app would receive, \
            with seeded, realistic timing. The same seed gives byte-identical output. The header records the \
            scenario, style, seed and faults. `--list` prints the scenarios, styles and faults.

            The service scenarios (rolling-deploy, slow-drain, crash-loop, shutdown-overrun) write what \
            LifetraceServiceLifecycle records of a server and a worker under an orchestrator; their header lists \
            the rules check must find (expected_rules) and each process's exit (expected_exits). --slow \
            service.shutdown=F makes every drain F times as long, service.ready=F every start-up.
            """
    )

    @Option(help: "The scenario (see --list).")
    var scenario: String = Scenario.coldLaunch.rawValue

    @Option(help: "uikit-scenes, app-delegate or swiftui (default: the scenario's).")
    var style: String?

    @Option(help: "The seed of every random draw.")
    var seed: UInt64 = 1

    @Flag(help: "Write process.suspend, process.resume and process.exit, which a real app cannot observe.")
    var groundTruth = false

    @Option(help: "Write a heartbeat at this interval while the process runs (e.g. 1s).")
    var heartbeat: String?

    @Option(name: .customLong("inject"), parsing: .upToNextOption, help: "Faults to inject (see --list).")
    var faults: [String] = []

    @Option(
        name: .customLong("slow"),
        help: ArgumentHelp(
            "Make a callback's handlers this many times as long, e.g. scene.didEnterBackground=1.3: a build made slower, for compare.",
            valueName: "event=factor"))
    var slowed: [String] = []

    @Option(help: "random: stop once at least this many events were written.")
    var events: Int?

    @Option(help: "random: stop once the trace is at least this long (e.g. 2h).")
    var duration: String?

    @OptionGroup(title: "Header metadata")
    var metadata: HeaderMetadataOptions

    @Option(
        name: .shortAndLong, help: "The trace to write (.lifetrace, or .jsonl for JSON Lines; - for standard output).")
    var output: String?

    @Flag(help: "List the scenarios, styles and faults.")
    var list = false

    func validate() throws {
        if list { return }
        guard output != nil else { throw ValidationError("give the output file with -o") }
        if ServiceScenario(rawValue: scenario) != nil {
            try validateServiceScenario()
            return
        }
        guard Scenario(rawValue: scenario) != nil else {
            throw ValidationError("unknown scenario '\(scenario)'; see --list")
        }
        if let style, AppStyle(rawValue: style) == nil { throw ValidationError("unknown style '\(style)'; see --list") }
        for fault in faults where Fault(rawValue: fault) == nil {
            throw ValidationError("unknown fault '\(fault)'; see --list")
        }
        if let heartbeat, (Nanoseconds.parse(heartbeat) ?? 0) <= 0 {
            throw ValidationError("--heartbeat must be a positive duration such as 1s")
        }
        for entry in slowed where Self.slowdown(entry) == nil {
            throw ValidationError(
                "--slow takes an event name and a factor from 0.01 to 100, e.g. scene.didEnterBackground=1.3, not \"\(entry)\""
            )
        }
        if let duration, Nanoseconds.parse(duration) == nil {
            throw ValidationError("--duration must be a duration such as 2h")
        }
        if let events, events < 1 { throw ValidationError("--events must be positive") }
        if events != nil || duration != nil, scenario != Scenario.random.rawValue {
            throw ValidationError("--events and --duration apply to the random scenario")
        }
    }

    /// What a service scenario takes: a heartbeat, `--slow` of drains and start-ups; no app style, fault or length.
    private func validateServiceScenario() throws {
        if style != nil || !faults.isEmpty || events != nil || duration != nil {
            throw ValidationError(
                "--style, --inject, --events and --duration apply to app scenarios, not to the service scenario '\(scenario)'"
            )
        }
        if let heartbeat, (Nanoseconds.parse(heartbeat) ?? 0) <= 0 {
            throw ValidationError("--heartbeat must be a positive duration such as 1s")
        }
        for entry in slowed {
            guard let (kind, _) = Self.slowdown(entry), kind == .serviceShutdown || kind == .serviceReady else {
                throw ValidationError(
                    "--slow of a service scenario takes service.shutdown or service.ready and a factor from 0.01 to 100, e.g. service.shutdown=1.5, not \"\(entry)\""
                )
            }
        }
    }

    func run(on console: Console) throws {
        if list {
            try printList(on: console)
            return
        }
        if let service = ServiceScenario(rawValue: scenario) {
            let slowdowns = Dictionary(slowed.compactMap(Self.slowdown), uniquingKeysWith: { $1 })
            let simulator = ServiceSimulator(
                configuration: .init(
                    scenario: service, seed: seed, groundTruth: groundTruth,
                    heartbeatInterval: heartbeat.flatMap(Nanoseconds.parse) ?? 1_000_000_000,
                    drainFactor: slowdowns[.serviceShutdown] ?? 1, readyFactor: slowdowns[.serviceReady] ?? 1))
            try write(header: simulator.header, on: console) { sink in try simulator.run(sink) }
            return
        }
        let configuration = Simulator.Configuration(
            scenario: Scenario(rawValue: scenario)!,
            style: style.flatMap(AppStyle.init(rawValue:)),
            seed: seed,
            groundTruth: groundTruth,
            heartbeatInterval: heartbeat.flatMap(Nanoseconds.parse),
            faults: faults.compactMap(Fault.init(rawValue:)),
            minimumEvents: events,
            minimumDuration: duration.flatMap(Nanoseconds.parse),
            slowedHandlers: Dictionary(slowed.compactMap(Self.slowdown), uniquingKeysWith: { $1 }))
        let simulator = Simulator(configuration: configuration)
        try write(header: simulator.header, on: console) { sink in try simulator.run(sink) }
    }

    /// Writes the events `simulate` passes to its sink under `header` (with `--meta` applied) to the output.
    private func write(
        header: TraceHeader, on console: Console,
        _ simulate: (@escaping (LifecycleEvent) throws -> Void) throws -> Int
    ) throws {
        let staged = try StagedOutput(path: output!, on: console)
        let writer = try makeEventWriter(sink: staged.sink, header: metadata.applied(to: header), options: .zstd)
        let progress = Progress(total: events, label: "simulate", on: console)
        _ = try simulate { event in
            try writer.append(event)
            progress.tick()
        }
        try writer.close()
        try staged.commit()
        progress.finish()
    }

    /// `event=factor` read, when the event is a callback's and the factor in range.
    private static func slowdown(_ entry: String) -> (EventKind, Double)? {
        let parts = entry.split(separator: "=", maxSplits: 1)
        guard parts.count == 2, let kind = EventKind(name: String(parts[0])), let factor = Double(parts[1]),
            factor >= 0.01, factor <= 100
        else { return nil }
        return (kind, factor)
    }

    private func printList(on console: Console) throws {
        var out = StandardOutput(console)
        try out.line("Scenarios:")
        for scenario in Scenario.allCases { try out.line("  \(scenario.rawValue.padding(26))\(scenario.summary)") }
        for scenario in ServiceScenario.allCases {
            try out.line("  \(scenario.rawValue.padding(26))\(scenario.summary)")
        }
        try out.line("Styles:")
        for style in AppStyle.allCases { try out.line("  \(style.rawValue.padding(26))\(style.summary)") }
        try out.line("Faults (--inject):")
        for fault in Fault.allCases { try out.line("  \(fault.rawValue.padding(32))\(fault.summary)") }
        try out.flush()
    }
}

extension String {
    /// The string padded with spaces to `width` columns.
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
