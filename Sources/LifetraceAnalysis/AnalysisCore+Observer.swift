// What the analyzer tells its observer (TimelineObserver), when it has one: the process an event started, the
// scene stretches the models closed, the event itself.

import LifetraceCore
import LifetraceFormat

extension AnalysisCore {
    /// Tells the observer of the current event, `block`'s event at `row`: the process it started, the stretches it
    /// closed, the event, as its record with the block lent for the call. Out of the loop, so that an analysis
    /// without an observer pays only the test for one.
    @inline(never)
    mutating func observe(row: Int, of block: borrowing EventBlock) {
        let event = block.records[row]
        drainSegments()
        if processStartPending {
            processStartPending = false
            observer?.processStarted(event, row: row, of: block, index: index)
        }
        observer?.event(event, row: row, of: block, index: index)
    }

    /// Hands the engine's closed scene segments to the observer.
    mutating func drainSegments() {
        guard let log = engine.segmentLog, !log.isEmpty else { return }
        engine.segmentLog = []
        for entry in log {
            observer?.segment(scene: entry.key, state: entry.state.rawValue, from: entry.start, to: entry.end, inferred: false)
        }
    }
}
