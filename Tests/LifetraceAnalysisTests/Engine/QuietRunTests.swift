import LifetraceCore
import LifetraceFormat
import LifetraceSimulator
import LifetraceTestSupport
import Testing

@testable import LifetraceAnalysis

/// Runs of quiet events (heartbeats, the thermal state, the system's notices: events that change nothing but the
/// process's last sign of life) are read apart from the per-event loop. Reading them there must give the same
/// result as the loop: the same findings, times, processes, suspensions and handlers, wherever blocks end.
@Suite struct QuietRunTests {
    /// The result of `events` fed in blocks of `blockSizes` (cycled), with quiet runs read apart or not, and
    /// how many runs were.
    static func analyze(
        _ events: [LifecycleEvent], header: TraceHeader?, blockSizes: [Int], quietRuns: Bool
    ) -> (result: AnalysisResult, runs: Int) {
        let analyzer = TraceAnalyzer(file: "test.jsonl", header: header)
        if !quietRuns { analyzer.core.skimsQuietRuns = false }
        var block = EventBlock()
        var start = 0
        var size = 0
        while start < events.count {
            let end = min(start + blockSizes[size % blockSizes.count], events.count)
            block.removeAll()
            for event in events[start..<end] { block.append(event) }
            analyzer.consume(block)
            start = end
            size += 1
        }
        let runs = analyzer.core.quietRunsRead
        return (analyzer.finish(), runs)
    }

    /// Expects every part of two results to be equal.
    static func expectSame(_ a: AnalysisResult, _ b: AnalysisResult, _ comment: Comment) {
        #expect(a.findings == b.findings, comment)
        #expect(a.omittedFindings == b.omittedFindings, comment)
        #expect(a.eventCount == b.eventCount && a.span == b.span, comment)
        #expect(a.totals == b.totals, comment)
        #expect(a.processes == b.processes && a.processCount == b.processCount, comment)
        #expect(a.endCounts == b.endCounts, comment)
        #expect(a.scenes == b.scenes, comment)
        #expect(a.suspensions == b.suspensions && a.suspensionCount == b.suspensionCount, comment)
        #expect(a.suspensionFromGroundTruth == b.suspensionFromGroundTruth, comment)
        #expect(a.silentExits == b.silentExits, comment)
        #expect(a.longestHandlers == b.longestHandlers, comment)
    }

    /// Compares both ways of reading `events`, in blocks of several sizes; returns the quiet runs read apart.
    @discardableResult
    static func expectSameBothWays(_ events: [LifecycleEvent], header: TraceHeader?, _ comment: Comment) -> Int {
        let alone = analyze(events, header: header, blockSizes: [events.count], quietRuns: false).result
        var runs = 0
        for sizes in [[events.count], [1], [3, 1, 7], [64]] {
            let (apart, read) = analyze(events, header: header, blockSizes: sizes, quietRuns: true)
            expectSame(apart, alone, "\(comment), blocks of \(sizes)")
            runs = max(runs, read)
        }
        return runs
    }

    // MARK: - Which kinds are quiet

    /// Under the built-in models and rules, what the analyzer reads of each kind decides whether it is quiet:
    /// a heartbeat, a marker or the thermal state only show the process running; a process's, a task's or a
    /// service's event, a callback the models read, `handler.return` (a handler's duration), the snapshots (the
    /// recording began late), `app.willTerminate` and `recorder.dropped` change what is judged.
    @Test func quietKindsAreTheEventsNothingJudges() {
        let analyzer = TraceAnalyzer(file: "test.jsonl", header: TraceHeader(sceneManifest: true))
        let quiet = analyzer.core.quietKinds
        for kind: EventKind in [.heartbeat, .systemThermalState] {
            #expect(quiet[kind.rawValue], "\(kind.name)")
        }
        let judged: [EventKind] = [
            .processLaunch, .processExit, .processSuspend, .processResume, .taskBegin, .taskEnd, .taskExpire,
            .bgRefreshBegin, .sceneWillConnect, .sceneDidBecomeActive, .sceneWillResignActive,
            .sceneDidEnterBackground, .appDidEnterBackground, .appDidFinishLaunching, .appWillTerminate,
            .handlerReturn, .appState, .sceneState, .recorderDropped, .swiftuiScenePhase,
        ]
        for kind in judged { #expect(!quiet[kind.rawValue], "\(kind.name)") }
    }

    // MARK: - The same result

    /// Simulated runs with heartbeats, every scenario, with ground truth and without: the analyzer reads quiet
    /// runs apart in each (the comparison is not vacuous) and finds the same.
    @Test(arguments: Scenario.allCases)
    func simulatedRunsWithHeartbeatsReadTheSame(scenario: Scenario) throws {
        for (seed, groundTruth) in [(UInt64(1), false), (2, true), (3, false)] {
            let simulator = Simulator(
                configuration: .init(
                    scenario: scenario, seed: seed, groundTruth: groundTruth, heartbeatInterval: 5_000_000_000,
                    minimumEvents: 400))
            var events: [LifecycleEvent] = []
            try simulator.run { events.append($0) }
            let runs = Self.expectSameBothWays(
                events, header: simulator.header, "\(scenario.rawValue) seed \(seed) ground truth \(groundTruth)")
            #expect(runs > 0, "\(scenario.rawValue): quiet runs read apart")
        }
    }

    /// Every injected fault is found the same way with quiet runs read apart, heartbeats or not.
    @Test(arguments: FaultAndCleanTraceTests.faultCases)
    func faultsAreFoundTheSame(fault: Fault, style: AppStyle) throws {
        for heartbeat: Int64? in [nil, 2_000_000_000] {
            let simulator = Simulator(
                configuration: .init(
                    scenario: fault.showcase, style: style, seed: 5, groundTruth: fault == .workWhileSuspended,
                    heartbeatInterval: heartbeat, faults: [fault]))
            var events: [LifecycleEvent] = []
            try simulator.run { events.append($0) }
            Self.expectSameBothWays(events, header: simulator.header, "\(fault) \(style) heartbeat \(heartbeat ?? 0)")
        }
    }

    /// Random walks with runs of heartbeats and the thermal state between their events, at random gaps (some long
    /// enough to infer a suspension in the middle of a run), some with attributes, some with durations that reach
    /// the longest handlers, and markers (`custom`, which LT080 reads) that break the runs; under every kind of
    /// evidence.
    @Test(arguments: 0..<40)
    func randomWalksWithQuietRunsReadTheSame(seed: Int) {
        var rng = SplitMix64(seed: UInt64(9100 + seed))
        var header = RandomTrace.header(using: &rng) ?? TraceHeader(sceneManifest: true)
        switch seed % 4 {
        case 0: header.heartbeatNanoseconds = 1_000_000_000
        case 1: header[.groundTruth] = .bool(true)
        case 2: header.isDerived = true
        default: break
        }
        var events: [LifecycleEvent] = []
        var t: Int64 = 0
        for event in RandomTrace.events(count: 300, using: &rng) {
            t = max(t, event.t)
            var event = event
            event.t = t
            // A handler's end, t + dur, fits 64 bits (the walk's own events are well-formed at their own times).
            event.dur = event.dur.map { min($0, Int64.max - t) }
            events.append(event)
            for _ in 0..<Int.random(in: 0...12, using: &rng) {
                // Gaps around two heartbeat intervals and the ten-second threshold, either side.
                t += [1_000_000, 1_900_000_000, 2_100_000_000, 9_000_000_000, 11_000_000_000].randomElement(
                    using: &rng)!
                var quiet = LifecycleEvent(
                    t: t, kind: [EventKind.heartbeat, .custom, .systemThermalState].randomElement(using: &rng)!)
                if quiet.kind == .custom { quiet.label = "marker" }
                if Int.random(in: 0..<8, using: &rng) == 0 {
                    quiet.dur = Int64.random(in: 1...900_000_000, using: &rng)
                }
                if Int.random(in: 0..<16, using: &rng) == 0 { quiet.attrs = [Attribute("n", .int(1))] }
                events.append(quiet)
            }
        }
        Self.expectSameBothWays(events, header: header, "seed \(seed)")
    }
}
