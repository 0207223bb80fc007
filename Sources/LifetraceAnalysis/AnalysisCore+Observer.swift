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

    /// Hands the engine's closed scene segments to the observer, then empties the log keeping its storage, so
    /// that the next segment logged allocates nothing: entry by entry from the end (an event closes one or two),
    /// which costs less than `removeAll(keepingCapacity:)`, a general replacement of the whole range.
    mutating func drainSegments() {
        guard let count = engine.segmentLog?.count, count > 0 else { return }
        for i in 0..<count {
            guard let entry = engine.segmentLog?[i] else { break }
            observer?.segment(
                scene: entry.key, state: entry.state.timelineState, from: entry.start, to: entry.end, inferred: false)
        }
        for _ in 0..<count { engine.segmentLog?.removeLast() }
    }
}
