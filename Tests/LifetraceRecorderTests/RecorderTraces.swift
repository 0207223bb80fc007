import Foundation
import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat

/// Reads what a recorder wrote (stored frames, read in Swift: no libzstd, so these tests also run on Apple
/// platforms), and checks it as `lifetrace check` does.
enum RecorderTraces {
    static func read(_ path: String) throws -> (header: TraceHeader?, events: [LifecycleEvent]) {
        let reader = try TraceReader(path: path, codec: .stored)
        var events: [LifecycleEvent] = []
        while let event = try reader.next() { events.append(event) }
        return (reader.header, events)
    }

    /// The ids of the error findings `lifetrace check` reports for the trace at `path`.
    static func errors(_ path: String) throws -> [RuleID] {
        try TraceAnalyzer.analyze(path: path).findings.filter { $0.severity == .error }.map(\.rule.id)
    }
}
