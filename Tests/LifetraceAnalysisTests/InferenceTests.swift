import LifetraceAnalysis
import LifetraceCore
import LifetraceSimulator
import LifetraceTestSupport
import Testing

/// Suspension and exits inferred without ground truth, scored against the simulator's ground truth.
@Suite struct InferenceTests {
    static func truth(_ events: [LifecycleEvent]) -> (suspended: Int64, exits: [String]) {
        var suspended: Int64 = 0
        var since: Int64?
        var exits: [String] = []
        for event in events {
            switch event.kind {
            case .processSuspend: since = event.t
            case .processResume, .processExit:
                if let start = since { suspended += event.t - start }
                since = nil
                if event.kind == .processExit { exits.append(event.reason ?? "") }
            default: break
            }
        }
        return (suspended, exits)
    }

    /// How the simulator's exit reasons must be classified.
    static let expectedEnd: [String: ProcessEnd] = [
        "memory-pressure": .terminatedWhileSuspended, "user-swipe": .terminatedWhileSuspended,
        "reboot": .terminatedWhileSuspended, "terminated-in-background": .cleanTerminate,
        "background-task-assertion-timeout": .killedWithBackgroundTask,
        "background-handler-timeout": .killedInBackgroundHandler,
    ]

    @Test(arguments: [(AppStyle.uikitScenes, UInt64(11)), (.appDelegate, 12), (.swiftui, 13)])
    func everyProcessEndIsClassifiedAsTheSimulatorEndedIt(style: AppStyle, seed: UInt64) throws {
        let (events, result) = try AnalysisHarness.simulateAndAnalyze(
            .init(scenario: .random, style: style, seed: seed, groundTruth: true, minimumEvents: 30_000),
            withholdGroundTruth: true)
        let truth = Self.truth(events)
        let classified = result.processes.map(\.end)
        #expect(classified.count == truth.exits.count + 1)  // the last process is alive when the trace ends
        #expect(classified.last == .traceEnded)
        for (reason, end) in zip(truth.exits, classified) { #expect(Self.expectedEnd[reason] == end, "\(reason)") }
    }

    /// Inferred suspended time is within 1 % of the truth. A suspension that ends in a silent exit lasts at
    /// most until the next launch; the total subtracts the time not running, estimated from the relaunches
    /// after `applicationWillTerminate` in the same trace.
    @Test(arguments: [
        (AppStyle.uikitScenes, UInt64(21)), (.appDelegate, 22), (.swiftui, 23), (.uikitScenes, 24), (.appDelegate, 25),
        (.swiftui, 26), (.uikitScenes, 27), (.appDelegate, 28), (.swiftui, 29),
    ])
    func inferredSuspendedTimeIsCloseToTheTruth(style: AppStyle, seed: UInt64) throws {
        let (events, result) = try AnalysisHarness.simulateAndAnalyze(
            .init(scenario: .random, style: style, seed: seed, groundTruth: true, minimumEvents: 30_000),
            withholdGroundTruth: true)
        let truth = Self.truth(events)
        let ratio = Double(result.totals.suspended) / Double(truth.suspended)
        #expect(abs(ratio - 1) < 0.01, "ratio \(ratio), \(result.silentExits)")
        // The estimate came from the trace: processes that announced their end, then a relaunch.
        #expect(result.silentExits.exits > 100 && result.silentExits.relaunches > 10)
    }

    /// One process's life in JSON Lines, from launch at `launch` seconds to `didEnterBackground` returning
    /// 1 µs after `background` seconds.
    static func life(launch: Int64, background: Int64) -> [String] {
        let s: Int64 = 1_000_000_000
        return [
            #"{"t":\#(launch * s),"ev":"process.launch","reason":"user"}"#,
            #"{"t":\#(launch * s + 10),"ev":"app.didFinishLaunching","dur":5}"#,
            #"{"t":\#(launch * s + 20),"ev":"scene.willConnect","scene":"S1"}"#,
            #"{"t":\#(launch * s + 30),"ev":"scene.willEnterForeground","scene":"S1"}"#,
            #"{"t":\#(launch * s + 40),"ev":"scene.didBecomeActive","scene":"S1"}"#,
            #"{"t":\#(background * s),"ev":"scene.willResignActive","scene":"S1"}"#,
            #"{"t":\#(background * s + 10),"ev":"scene.didEnterBackground","scene":"S1","dur":990}"#,
        ]
    }

    /// Worked by hand: two silent exits after 990 s − 1 µs and 1914 s − 1 µs idle in the background, and
    /// one relaunch 60 s after `applicationWillTerminate` returned. Suspended: both intervals, less 60 s each.
    @Test func silentExitsSubtractTheObservedTimeNotRunning() throws {
        let s: Int64 = 1_000_000_000
        let lines =
            [#"{"lifetrace":1,"scene_manifest":true}"#]
            + Self.life(launch: 0, background: 10)
            + Self.life(launch: 1000, background: 1010)
            + [#"{"t":\#(1015 * s),"ev":"app.willTerminate","dur":\#(s)}"#]
            + Self.life(launch: 1076, background: 1086)
            + Self.life(launch: 3000, background: 3010)
        let (header, events) = try AnalysisHarness.parse(lines.joined(separator: "\n"))
        let result = AnalysisHarness.analyze(events, header: header)
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
        #expect(
            result.processes.map(\.end) == [
                .terminatedWhileSuspended, .cleanTerminate, .terminatedWhileSuspended, .traceEnded,
            ])
        let intervals = (990 + 1914) * s - 2000
        let estimate = result.silentExits
        #expect(estimate.exits == 2 && estimate.intervals == intervals)
        #expect(estimate.relaunches == 1 && estimate.relaunchGaps == 60 * s && estimate.notRunning == 120 * s)
        #expect(result.totals.suspended == intervals - 2 * 60 * s)
        // Per process, a silent exit's process stays suspended until the next launch.
        #expect(result.processes.map(\.times.suspended) == [990 * s - 1000, 0, 1914 * s - 1000, 0])
    }

    /// Without an announced end to measure from, the intervals stand as they are: an upper bound.
    @Test func withoutAnAnnouncedEndTheIntervalsStand() throws {
        let s: Int64 = 1_000_000_000
        let lines =
            [#"{"lifetrace":1,"scene_manifest":true}"#]
            + Self.life(launch: 0, background: 10) + Self.life(launch: 1000, background: 1010)
        let (header, events) = try AnalysisHarness.parse(lines.joined(separator: "\n"))
        let result = AnalysisHarness.analyze(events, header: header)
        #expect(result.silentExits.notRunning == 0)
        #expect(result.totals.suspended == 990 * s - 1000)
    }

    /// With heartbeats, each inferred suspension starts within one heartbeat interval of the true one.
    @Test func withHeartbeatsEachSuspensionStartsWithinOneInterval() throws {
        let interval: Int64 = 1_000_000_000
        let (events, result) = try AnalysisHarness.simulateAndAnalyze(
            .init(scenario: .random, seed: 31, groundTruth: true, heartbeatInterval: interval, minimumEvents: 30_000),
            withholdGroundTruth: true)
        let starts = events.filter { $0.kind == .processSuspend }.map(\.t)
        #expect(result.suspensions.count >= 20)
        for suspension in result.suspensions {
            let nearest = starts.min { abs($0 - suspension.start) < abs($1 - suspension.start) }!
            #expect(abs(nearest - suspension.start) <= interval, "inferred \(suspension.start), true \(nearest)")
            #expect(suspension.basis == "heartbeats stopped" || suspension.basis.hasPrefix("idle"))
        }
    }

    /// A header's heartbeat interval counts only when it is positive, and a huge one infers no suspension
    /// rather than overflowing: an app idle in the background for an hour is suspended after the default
    /// 10 s without heartbeats, after 2 s with heartbeats every second, and never with an interval of 2^63 − 1.
    @Test(
        arguments: [
            (nil, "idle in the background"), (-5, "idle in the background"), (0, "idle in the background"),
            (1_000_000_000, "heartbeats stopped"), (Int64.max, nil),
        ] as [(Int64?, String?)])
    func heartbeatIntervalsFromTheHeader(interval: Int64?, basis: String?) {
        var header = TraceHeader(sceneManifest: true)
        if let interval { header[.heartbeat] = .int(interval) }
        let analyzer = TraceAnalyzer(file: "idle.lifetrace", header: header)
        let events = [
            LifecycleEvent(t: 0, kind: .processLaunch, reason: "user"),
            LifecycleEvent(t: 1_000_000, kind: .appDidFinishLaunching),
            LifecycleEvent(t: 2_000_000, kind: .sceneWillConnect, scene: "S1"),
            LifecycleEvent(t: 3_000_000, kind: .sceneWillEnterForeground, scene: "S1"),
            LifecycleEvent(t: 4_000_000, kind: .sceneDidBecomeActive, scene: "S1"),
            LifecycleEvent(t: 5_000_000, kind: .sceneWillResignActive, scene: "S1"),
            LifecycleEvent(t: 6_000_000, kind: .sceneDidEnterBackground, scene: "S1", dur: 1_000_000),
            LifecycleEvent(t: 3_600_000_000_000, kind: .sceneWillEnterForeground, scene: "S1"),
        ]
        for event in events { analyzer.consume(event) }
        let result = analyzer.finish()
        #expect(result.suspensions.map(\.basis) == (basis.map { [$0] } ?? []))
        if basis != nil { #expect(result.suspensions.first?.start == 7_000_000) }
    }
}
