import Foundation
import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat
import LifetraceZstd

/// Reads what a recorder wrote, and checks it as `lifetrace check` does.
enum RecorderTraces {
    static func read(_ path: String) throws -> (header: TraceHeader?, events: [LifecycleEvent]) {
        let reader = try TraceReader(path: path)
        var events: [LifecycleEvent] = []
        while let event = try reader.next() { events.append(event) }
        return (reader.header, events)
    }

    /// The ids of the error findings `lifetrace check` reports for the trace at `path`.
    static func errors(_ path: String) throws -> [RuleID] {
        try TraceAnalyzer.analyze(path: path).findings.filter { $0.severity == .error }.map(\.rule.id)
    }
}
