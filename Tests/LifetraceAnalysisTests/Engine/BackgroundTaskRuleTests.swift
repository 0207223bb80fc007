import LifetraceAnalysis
import LifetraceCore
import LifetraceTestSupport
import Testing

/// The background-task rules, each sequence built from a sentence of Apple's documentation. Times are in
/// seconds after a cold launch of a scene-based app whose scene is active at 1 s.
@Suite struct BackgroundTaskRuleTests {
    static let s: Int64 = 1_000_000_000

    /// A sequence of lines `seconds event [task] [name]`, after the launch.
    struct Sequence: CustomStringConvertible, Sendable {
        var description: String
        var steps: [(Double, EventKind, Int64?)]
        /// The error rules expected, in order.
        var errors: [String]
        /// How the process is expected to end, if it ends within the trace.
        var end: ProcessEnd? = nil
    }

    static func events(_ steps: [(Double, EventKind, Int64?)]) -> [LifecycleEvent] {
        var events = [
            LifecycleEvent(t: 0, kind: .processLaunch, reason: "user"),
            LifecycleEvent(t: s / 10, kind: .appDidFinishLaunching),
            LifecycleEvent(t: s / 5, kind: .sceneWillConnect, scene: "S1"),
            LifecycleEvent(t: s / 4, kind: .sceneWillEnterForeground, scene: "S1"),
            LifecycleEvent(t: s, kind: .sceneDidBecomeActive, scene: "S1"),
        ]
        for (seconds, kind, task) in steps {
            let t = Int64(seconds * Double(s))
            let scene = kind.layer == .scene ? "S1" : nil
            events.append(LifecycleEvent(t: t, kind: kind, scene: scene, task: task))
        }
        return events
    }

    static func background(at t: Double) -> [(Double, EventKind, Int64?)] {
        [(t, .sceneWillResignActive, nil), (t + 0.001, .sceneDidEnterBackground, nil)]
    }
    static func foreground(at t: Double) -> [(Double, EventKind, Int64?)] {
        [(t, .sceneWillEnterForeground, nil), (t + 0.001, .sceneDidBecomeActive, nil)]
    }

    static let sequences: [Sequence] = [
        // backgroundTimeRemaining: "The value is valid only after the app enters the background and has started
        // at least one task ... in the foreground": ten minutes in the foreground do not count.
        Sequence(
            description: "begun at launch, ten minutes in the foreground, ended 12 s into the background",
            steps: [(2, .taskBegin, 1)] + background(at: 600) + [(612, .taskEnd, 1)], errors: []),
        // A return to the foreground gives unlimited time again; the budget counts from the next entry.
        Sequence(
            description: "20 s in the background, back, then 25 s in the background",
            steps: [(2, .taskBegin, 1)] + background(at: 10) + foreground(at: 30) + background(at: 40)
                + [(65, .taskEnd, 1)], errors: []),
        // Extending your app's background execution time: "If you don't end your tasks in a timely manner, the
        // system terminates your app".
        Sequence(
            description: "begun in the background, 40 s without expiring",
            steps: background(at: 2) + [(3, .taskBegin, 1), (43, .taskEnd, 1)], errors: ["LT043"]),
        Sequence(
            description: "begun in the foreground, ended 31 s into the background",
            steps: [(2, .taskBegin, 1)] + background(at: 10) + [(41.01, .taskEnd, 1)], errors: ["LT043"]),
        // beginBackgroundTask(withName:expirationHandler:): the handler should "mark the end of the background
        // task. Failure to end the task explicitly will result in the termination of the app."
        Sequence(
            description: "the expiration handler ends the task at once",
            steps: background(at: 2) + [(3, .taskBegin, 1), (28, .taskExpire, 1), (28.01, .taskEnd, 1)], errors: []),
        Sequence(
            description: "ended 5 s after the expiration handler ran",
            steps: background(at: 2) + [(3, .taskBegin, 1), (28, .taskExpire, 1), (33, .taskEnd, 1)],
            errors: ["LT042"]),
        Sequence(
            description: "never ended after the expiration handler ran; the app is launched again",
            steps: background(at: 2) + [(3, .taskBegin, 1), (28, .taskExpire, 1), (300, .processLaunch, nil)],
            errors: ["LT042"], end: .killedWithBackgroundTask),
        // setTaskCompleted(success:): "Not calling setTaskCompleted(success:) before the time for the task expires
        // may result in the system killing your app."
        Sequence(
            description: "a refresh task completed in 10 s",
            steps: background(at: 2) + [(100, .bgRefreshBegin, 7), (110, .bgRefreshEnd, 7)], errors: []),
        Sequence(
            description: "a refresh task expired and completed at once",
            steps: background(at: 2) + [(100, .bgRefreshBegin, 7), (130, .taskExpire, 7), (130.3, .bgRefreshEnd, 7)],
            errors: []),
        Sequence(
            description: "a refresh task completed 3 s after it expired",
            steps: background(at: 2) + [(100, .bgRefreshBegin, 7), (125, .taskExpire, 7), (128, .bgRefreshEnd, 7)],
            errors: ["LT045"]),
        // Killed, or relaunched, while its task runs: how the process ended, not a finding, until the trace shows
        // the task's time passing (its budget, or its expiration) before the process stopped.
        Sequence(
            description: "a refresh task open when the app is launched again, its process last seen at its start",
            steps: background(at: 2) + [(100, .bgRefreshBegin, 7), (500, .processLaunch, nil)],
            errors: [], end: .killedWithBackgroundTask),
        Sequence(
            description:
                "a refresh task never completed, its process seen alive past its 30 s; the app is launched again",
            steps: background(at: 2) + [(100, .bgRefreshBegin, 7), (131, .heartbeat, nil), (500, .processLaunch, nil)],
            errors: ["LT044"], end: .killedWithBackgroundTask),
        Sequence(
            description: "a refresh task never completed after its expiration handler ran; the app is launched again",
            steps: background(at: 2) + [(100, .bgRefreshBegin, 7), (125, .taskExpire, 7), (500, .processLaunch, nil)],
            errors: ["LT044"], end: .killedWithBackgroundTask),
        // BGProcessingTask: "The system terminates any background processing tasks running when the user starts
        // using the device."
        Sequence(
            description: "a processing task completed as the user comes back",
            steps: background(at: 2) + [(100, .bgProcessingBegin, 8)] + foreground(at: 400)
                + [(400.5, .bgProcessingEnd, 8)], errors: []),
        Sequence(
            description: "a processing task completed 5 s after the user came back",
            steps: background(at: 2) + [(100, .bgProcessingBegin, 8)] + foreground(at: 400)
                + [(405, .bgProcessingEnd, 8)], errors: ["LT045"]),
        Sequence(
            description: "a processing task never completed after the user came back; the app is launched again",
            steps: background(at: 2) + [(100, .bgProcessingBegin, 8)] + foreground(at: 400)
                + [(900, .processLaunch, nil)], errors: ["LT044"], end: .killedWithBackgroundTask),
        Sequence(
            description: "a processing task running for minutes while the device is idle",
            steps: background(at: 2) + [(100, .bgProcessingBegin, 8), (700, .bgProcessingEnd, 8)], errors: []),
    ]

    @Test(arguments: sequences)
    func theRulesFollowTheDocumentation(sequence: Sequence) {
        let result = AnalysisHarness.analyze(Self.events(sequence.steps))
        #expect(result.findings.filter { $0.severity == .error }.map(\.rule.id.rawValue) == sequence.errors)
        if let end = sequence.end {
            #expect(result.processes.first?.end == end)
        }
    }

    /// The grace after expiry is a budget of `lifetrace.json`.
    @Test func theGraceIsConfigurable() {
        var configuration = AnalysisConfiguration.defaults
        configuration.budgets["expirationGrace"] = 10 * Self.s
        let events = Self.events(
            Self.background(at: 2) + [(3, .taskBegin, 1), (28, .taskExpire, 1), (33, .taskEnd, 1)])
        #expect(AnalysisHarness.analyze(events, configuration: configuration).findings.isEmpty)
    }

    /// Whenever the summary says a process was killed with a background task open, either a finding says which,
    /// or the end's basis says that the task's deadline was not shown passing — never both, never neither.
    @Test(arguments: sequences.filter { $0.end == .killedWithBackgroundTask })
    func theSummaryAndTheFindingsAgree(sequence: Sequence) throws {
        let result = AnalysisHarness.analyze(Self.events(sequence.steps))
        let process = try #require(result.processes.first)
        #expect(process.end == .killedWithBackgroundTask)
        let reported = result.findings.contains { ["LT041", "LT042", "LT044"].contains($0.rule.id) }
        #expect(reported != process.endBasis.hasSuffix("(not a finding)"), "\(process.endBasis)")
    }
}
