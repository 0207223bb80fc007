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

    /// Inferred suspended time is within 2 % of the truth. The remaining error is the end of suspensions
    /// that end in termination: the exit is silent, so lifetrace counts them until the next launch.
    @Test(arguments: [(AppStyle.uikitScenes, UInt64(21)), (.appDelegate, 22), (.swiftui, 23)])
    func inferredSuspendedTimeIsCloseToTheTruth(style: AppStyle, seed: UInt64) throws {
        let (events, result) = try AnalysisHarness.simulateAndAnalyze(
            .init(scenario: .random, style: style, seed: seed, groundTruth: true, minimumEvents: 30_000),
            withholdGroundTruth: true)
        let truth = Self.truth(events)
        let ratio = Double(result.totals.suspended) / Double(truth.suspended)
        #expect(ratio > 1.0 && ratio < 1.02, "ratio \(ratio)")
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
}
