public import Foundation
public import LifetraceAnalysis
public import LifetraceCore
public import LifetraceFormat
import LifetraceRecorder

/// A trace that an app under test wrote, read and checked as `lifetrace check` checks it, for a unit or UI
/// test to assert on. It needs no C library: the recorder writes stored frames, which it reads in Swift (a
/// trace recompressed with libzstd is refused with an error naming the frame).
///
/// ```swift
/// let trace = try LifecycleTrace(contentsOf: traceURL)
/// trace.expectNoLifecycleErrors()                                   // Swift Testing; XCTAssertNoLifecycleErrors(trace) in XCTest
/// #expect(trace.errors.map(\.rule.id) == [])
/// #expect(trace.events.filter { $0.kind == .sceneDidEnterBackground }.count == 2)
/// ```
///
/// Handler durations are there only for callbacks the app measured (`Recorder.measure`, in a recorder that does
/// not capture the lifecycle): a captured trace has none, so assert that there are some before asserting on them.
///
/// ```swift
/// let durations = trace.handlerDurations(of: .sceneDidEnterBackground)
/// #expect(!durations.isEmpty)
/// #expect(durations.allSatisfy { $0.dur < 1_000_000_000 })
/// ```
public struct LifecycleTrace: Sendable {
    /// What `lifetrace check` found and measured.
    public let analysis: AnalysisResult
    /// Every event, in order.
    public let events: [LifecycleEvent]

    /// Reads and checks the trace at `url` with `configuration` (budgets, severities; `lifetrace.json`'s
    /// `AnalysisConfiguration`).
    public init(contentsOf url: URL, configuration: AnalysisConfiguration = .defaults) throws(TraceError) {
        let path = url.path
        let reader = try TraceReader(path: path, codec: .stored)
        var events: [LifecycleEvent] = []
        while let event = try reader.next() { events.append(event) }
        self.events = events
        analysis = try TraceAnalyzer.analyze(path: path, codec: .stored, configuration: configuration)
    }

    /// The newest trace a recorder wrote in `directory`, as `Recorder.traces(in:)` orders them (the most recent
    /// launch first), for a UI test whose app writes one trace per launch.
    public static func newest(in directory: URL, configuration: AnalysisConfiguration = .defaults) throws
        -> LifecycleTrace
    {
        guard let newest = Recorder.traces(in: directory).first else {
            throw TraceError(.io, file: directory.path, at: .file, "no .lifetrace file in the directory")
        }
        return try LifecycleTrace(contentsOf: newest.url, configuration: configuration)
    }

    /// Every finding, errors and warnings, in event order.
    public var findings: [Finding] { analysis.findings }

    /// The findings of severity error: what makes `lifetrace check` exit 1.
    public var errors: [Finding] { findings.filter { $0.severity == .error } }

    /// The findings of severity warning.
    public var warnings: [Finding] { findings.filter { $0.severity == .warning } }

    /// The findings of `rule`.
    public func findings(of rule: RuleID) -> [Finding] {
        findings.filter { $0.rule.id == rule }
    }

    /// Time active, inactive, in the background and suspended, in nanoseconds, over every process.
    public var time: StateTimes { analysis.totals }

    /// How each process ended, in order.
    public var processes: [ProcessSummary] { analysis.processes }

    /// The handler durations of the callbacks of `kind` (optionally in one scene), in order: the measured
    /// callbacks (`LifetraceRecorder`'s `measure`), with a duration returned later (`handler.return`) joined
    /// to its callback. A callback whose handler never returned has none.
    public func handlerDurations(of kind: EventKind, scene: String? = nil) -> [HandlerDuration] {
        var durations: [HandlerDuration] = []
        var unfinished: [Int: Int] = [:]  // event index of an unfinished callback -> its place in `durations`
        for (index, event) in events.enumerated() {
            if event.kind == .handlerReturn, event.name == kind.name, scene == nil || event.scene == scene,
                let dur = event.dur,
                let callback = unfinished.keys.filter({ events[$0].scene == event.scene }).max(),
                let place = unfinished.removeValue(forKey: callback)
            {
                durations[place].dur = dur
                continue
            }
            guard event.kind == kind, scene == nil || event.scene == scene else { continue }
            if event.dur == nil { unfinished[index] = durations.count }
            durations.append(HandlerDuration(name: kind.name, scene: event.scene, dur: event.dur ?? -1, index: index))
        }
        return durations.filter { $0.dur >= 0 }
    }

    /// The error findings as `lifetrace check` prints them, one block each; empty when there are none.
    public var errorReport: String {
        errors.map(\.description).joined(separator: "\n")
    }

    /// The message of a failed "no lifecycle errors" assertion.
    var noErrorsFailureMessage: String {
        let count = errors.count
        return "\(analysis.file): \(Plural.count(count, "lifecycle error")):\n" + errorReport
    }
}
