import LifetraceCore
import LifetraceSimulator
import LifetraceTestSupport
import Testing

@testable import LifetraceAnalysis

/// How a run ended is a fact about the end, never a finding by itself. Legal runs of the simulator — every
/// scenario and app style, several seeds, as an app records them and with the simulator's ground truth — are cut
/// after every event and ended there in each way a run ends: the capture stops, a SIGKILL (a UI test's
/// `terminate()`), a crash, a jetsam kill, a relaunch. Each end comes in the gap before the event the cut removed,
/// at its start and at its end, so that the run up to the end stays one the app could have recorded. No cut
/// gets an error. The same runs with each documented mistake injected keep the mistake's rule at every cut after
/// the event where the whole run proves it, whatever the end.
@Suite(.integration) struct EndOfTraceProperties {
    /// The ways a run ends after its last recorded event.
    enum End: CaseIterable, CustomStringConvertible {
        case captureEnd, sigkill, crash, jetsam, relaunch

        var description: String {
            switch self {
            case .captureEnd: "capture end"
            case .sigkill: "SIGKILL"
            case .crash: "crash (SIGABRT)"
            case .jetsam: "jetsam"
            case .relaunch: "relaunch"
            }
        }

        /// The event this end appends at `t`, if any.
        func event(at t: Int64) -> LifecycleEvent? {
            switch self {
            case .captureEnd: nil
            case .sigkill: LifecycleEvent(t: t, kind: .processExit, reason: "SIGKILL")
            case .crash: LifecycleEvent(t: t, kind: .processExit, reason: "SIGABRT")
            case .jetsam: LifecycleEvent(t: t, kind: .processExit, reason: "jetsam-per-process-limit")
            case .relaunch: LifecycleEvent(t: t, kind: .processLaunch, reason: "user")
            }
        }
    }

    /// A simulated run as the analyzer sees it: with the ground truth, or as an app records it.
    struct Run {
        var header: TraceHeader
        var events: [LifecycleEvent]
        var label: String
        /// The built-in models compiled once for the run's header: thousands of cuts analyze it.
        var blueprint: ModelEngine.Blueprint

        init(header: TraceHeader, events: [LifecycleEvent], label: String) {
            self.header = header
            self.events = events
            self.label = label
            blueprint = ModelEngine.Blueprint(
                models: LifecycleModel.builtIn, manifest: header.sceneManifest,
                lifecycle: Optional(header).followedLifecycle, configuration: .defaults)
        }

        /// The analysis of `events`, a cut of the run.
        func analyze(_ events: [LifecycleEvent]) -> AnalysisResult {
            let analyzer = TraceAnalyzer(
                file: "cut.jsonl", header: header, models: LifecycleModel.builtIn, compiled: blueprint)
            for event in events { analyzer.consume(event) }
            return analyzer.finish()
        }
    }

    static func runs(_ configuration: Simulator.Configuration) throws -> [Run] {
        var configuration = configuration
        configuration.groundTruth = true
        let simulator = Simulator(configuration: configuration)
        var events: [LifecycleEvent] = []
        try simulator.run { events.append($0) }
        var recorded = simulator.header
        recorded[.groundTruth] = .bool(false)
        let label =
            "\(configuration.scenario.rawValue) \(configuration.style.rawValue) seed \(configuration.seed) \(configuration.faults.map(\.rawValue))"
        return [
            Run(header: simulator.header, events: events, label: label + " (ground truth)"),
            Run(
                header: recorded,
                events: events.filter { ![.processSuspend, .processResume, .processExit].contains($0.kind) },
                label: label + " (as recorded)"),
        ]
    }

    /// The run's first `count` events, then `end` at each of the delays the gap before the next event allows.
    static func cuts(of run: Run, keeping count: Int) -> [(End, [LifecycleEvent])] {
        let kept = Array(run.events.prefix(count))
        guard let last = kept.last else { return [] }
        let gap = count < run.events.count ? run.events[count].t - last.t : 60_000_000_000
        // Nothing can come between two events at the same time; an end after an exit is another process's.
        let delays = gap > 2 ? [1, gap - 1] : []
        var result: [(End, [LifecycleEvent])] = [(.captureEnd, kept)]
        for end in End.allCases where end != .captureEnd {
            if last.kind == .processExit, end != .relaunch { continue }
            for delay in delays { result.append((end, kept + [end.event(at: last.t + delay)!])) }
        }
        return result
    }

    static let legalConfigurations: [Simulator.Configuration] = Scenario.allCases.flatMap { scenario in
        AppStyle.allCases.flatMap { style in
            (UInt64(1)...2).map { seed in
                Simulator.Configuration(
                    scenario: scenario, style: style, seed: seed,
                    minimumEvents: scenario == .random ? 80 : nil)
            }
        }
    }

    @Test func noLegalRunCutByAnyEndHasAnError() throws {
        var cutsChecked = 0
        var failures: [String] = []
        for configuration in Self.legalConfigurations {
            for run in try Self.runs(configuration) {
                for count in 1...run.events.count {
                    for (end, events) in Self.cuts(of: run, keeping: count) {
                        let result = run.analyze(events)
                        cutsChecked += 1
                        let errors = result.findings.filter { $0.severity == .error }
                        if let first = errors.first, failures.count < 10 {
                            failures.append(
                                "\(run.label), cut after event \(count - 1) by \(end): \(first.rule.id) \(first.message)"
                            )
                        }
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        // Every scenario and style, two seeds, twice, cut after every event: thousands of cuts.
        #expect(cutsChecked > 5_000)
    }

    /// Whether the last process of `events` had its UI in the foreground at its last event, read from the callbacks'
    /// documented meaning alone, apart from the analyzer's models: each scene is in the foreground from
    /// `sceneWillEnterForeground` (or a SwiftUI phase of `inactive` or `active`) until `sceneDidEnterBackground` (or a
    /// phase of `background`), and gone at `sceneDidDisconnect`; the app is in the foreground while a scene is. An app
    /// without scenes follows its delegate's callbacks (or the SwiftUI App-level phase). Before any of these, the
    /// UI is where the launch's `ui_state` says; `nil` when nothing says.
    static func foregroundAtEnd(of events: [LifecycleEvent]) -> Bool? {
        var scenes: [String: Bool] = [:]
        var sawScenes = false
        var app: Bool?
        for event in events {
            switch event.kind {
            case .processLaunch:
                scenes = [:]
                sawScenes = false
                switch event.attrs?.first(where: { $0.key == Attribute.Key.uiState })?.value {
                case .string("inactive")?: app = true
                case .string("background")?: app = false
                default: app = nil
                }
            case .sceneWillEnterForeground, .sceneDidBecomeActive, .sceneWillResignActive:
                scenes[event.scene ?? ""] = true
                sawScenes = true
            case .sceneDidEnterBackground:
                scenes[event.scene ?? ""] = false
                sawScenes = true
            case .sceneDidDisconnect:
                scenes[event.scene ?? ""] = nil
            case .swiftuiScenePhase:
                guard let phase = event.phase else { break }
                if let scene = event.scene {
                    scenes[scene] = phase != .background
                    sawScenes = true
                } else {
                    app = phase != .background
                }
            case .appWillEnterForeground, .appDidBecomeActive, .appWillResignActive:
                app = true
            case .appDidEnterBackground:
                app = false
            default:
                break
            }
        }
        return sawScenes ? scenes.values.contains(true) : app
    }

    /// A SIGKILL (a UI test's `terminate()`) or a relaunch after any event of a legal run ends its process where its
    /// UI was: in the foreground when a scene (or the app) was, in the background otherwise. Where a task, a handler
    /// or a suspension decides the end first, the UI is not what it is classed by; those cuts are left out.
    @Test func aSilentEndIsPlacedWhereTheUIWas() throws {
        var cutsChecked = 0
        var failures: [String] = []
        for configuration in Self.legalConfigurations {
            for run in try Self.runs(configuration) {
                for count in 1...run.events.count {
                    let kept = Array(run.events.prefix(count))
                    guard kept.last?.kind != .processExit, let last = kept.last?.t,
                        let foreground = Self.foregroundAtEnd(of: kept)
                    else { continue }
                    for end in [End.sigkill, .relaunch] {
                        let result = run.analyze(kept + [end.event(at: last + 1)!])
                        // The ended process: the last, or the one before the relaunch (every process's summary kept).
                        let index = result.processes.count - (end == .relaunch ? 2 : 1)
                        guard result.processes.count == result.processCount, index >= 0 else { continue }
                        let ended = result.processes[index].end
                        guard ended == .endedInForeground || ended == .endedInBackground else { continue }
                        cutsChecked += 1
                        if (ended == .endedInForeground) != foreground, failures.count < 10 {
                            failures.append(
                                "\(run.label), cut after event \(count - 1) by \(end): \(ended.rawValue), "
                                    + "the UI \(foreground ? "in the foreground" : "in the background")")
                        }
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(cutsChecked > 1_000)
    }

    /// A service's rolling deploy — each revision drained within its grace period, then exited — cut after every
    /// event and ended each way: a kill in the middle of a drain shorter than the grace period is not the
    /// orchestrator's, and no cut has an error.
    @Test func noLegalServiceRunCutByAnyEndHasAnError() throws {
        var cutsChecked = 0
        var failures: [String] = []
        for seed: UInt64 in 1...3 {
            for groundTruth in [true, false] {
                // Heartbeats every 5 s, and cuts after every event but most heartbeats (a cut after one heartbeat is
                // like a cut after the next): the ends still fall in every phase of every revision.
                let simulator = ServiceSimulator(
                    configuration: .init(
                        scenario: .rollingDeploy, seed: seed, groundTruth: groundTruth,
                        heartbeatInterval: 5_000_000_000))
                var events: [LifecycleEvent] = []
                _ = try simulator.run { events.append($0) }
                let run = Run(
                    header: simulator.header, events: events,
                    label: "rolling-deploy seed \(seed) ground truth \(groundTruth)")
                #expect(run.analyze(events).findings.isEmpty, "\(run.label) is not legal")
                for count in 1...run.events.count where run.events[count - 1].kind != .heartbeat || count % 10 == 0 {
                    for (end, cut) in Self.cuts(of: run, keeping: count) {
                        cutsChecked += 1
                        if let first = run.analyze(cut).findings.first(where: { $0.severity == .error }),
                            failures.count < 10
                        {
                            failures.append(
                                "\(run.label), cut after event \(count - 1) by \(end): \(first.rule.id) \(first.message)"
                            )
                        }
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(cutsChecked > 1_000)
    }

    /// The rule each injected mistake is found under (FaultAndCleanTraceTests holds the same table).
    static let faultCases: [(Fault, AppStyle)] = Fault.allCases.flatMap { fault in fault.styles.map { (fault, $0) } }

    @Test(arguments: faultCases)
    func aMistakeDueBeforeTheEndIsFoundWhateverTheEnd(fault: Fault, style: AppStyle) throws {
        let rule = try #require(FaultAndCleanTraceTests.expectedRule[fault])
        var cutsChecked = 0
        for seed: UInt64 in 1...3 {
            let configuration = Simulator.Configuration(
                scenario: fault.showcase, style: style, seed: seed, faults: [fault])
            // Suspension is invisible to an app: work while suspended is only provable with ground truth.
            for run in try Self.runs(configuration)
            where fault != .workWhileSuspended || run.header[.groundTruth] == .bool(true) {
                let whole = run.analyze(run.events)
                let proven = try #require(
                    whole.findings.first { $0.rule.id.rawValue == rule }, "\(run.label): \(rule) not found")
                for count in (proven.eventIndex + 1)...run.events.count {
                    for (end, events) in Self.cuts(of: run, keeping: count) {
                        let result = run.analyze(events)
                        cutsChecked += 1
                        #expect(
                            result.findings.contains { $0.rule.id.rawValue == rule },
                            "\(run.label), cut after event \(count - 1) by \(end): \(result.findings.map { "\($0.rule.id) \($0.message)" })"
                        )
                    }
                }
            }
        }
        #expect(cutsChecked > 0)
    }
}
