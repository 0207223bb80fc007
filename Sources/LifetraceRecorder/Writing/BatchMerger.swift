import LifetraceCore

/// Puts the batches that the writer takes from every shard into one time order.
///
/// Each shard's batch is in time order, because a shard stamps its events under its lock. Across shards, an
/// event stamped before the writer began taking batches (before `cutoff`) is in this round's batches; one
/// stamped after it may still be on its way into a shard already taken, so it is carried to the next round
/// instead of being written ahead of it. An event stamped at `cutoff` itself is written: anything still on its
/// way is stamped at `cutoff` or later, so the trace stays in order, and a flush writes everything recorded in
/// the clock's tick it began in (an event recorded just before a flush that the process does not outlive). Relayed events, timestamped elsewhere, are written in the order
/// they came; a relayed time below what was written already is raised to it, so the trace never goes back.
///
/// Events are made whole (strings looked up) one at a time, as they are handed out: the merge itself compares
/// plain timestamps.
struct BatchMerger {
    private var carried: [LifecycleEvent] = []
    /// The time of the last event handed out.
    private(set) var lastT: Int64 = 0

    /// Whether events wait for the next round.
    var isHoldingEvents: Bool { !carried.isEmpty }

    /// Merges `batches` with what earlier rounds carried and passes every event that may be written now to
    /// `body`, in time order; events stamped after `cutoff` wait for the next round.
    mutating func merge(_ batches: [RecorderState.Batch], cutoff: Int64, _ body: (LifecycleEvent) -> Void) {
        let previous = carried
        carried.removeAll(keepingCapacity: true)
        var carriedPosition = 0
        var positions = [Int](repeating: 0, count: batches.count)
        while true {
            // The source with the earliest next event: -1 for the carried events, else a batch.
            var best = -2
            var bestT = Int64.max
            if carriedPosition < previous.count {
                best = -1
                bestT = previous[carriedPosition].t
            }
            for index in batches.indices where positions[index] < batches[index].events.count {
                let t = batches[index].events[positions[index]].t
                if best == -2 || t < bestT {
                    best = index
                    bestT = t
                }
            }
            if best == -2 { break }
            var event: LifecycleEvent
            let relayed: Bool
            if best == -1 {
                event = previous[carriedPosition]
                relayed = false
                carriedPosition += 1
            } else {
                let batch = batches[best]
                let position = positions[best]
                positions[best] += 1
                let recorded = batch.events[position]
                relayed = recorded.relayed
                event = recorded.event(strings: batch.strings, attrs: batch.attrs(of: position))
            }
            if !relayed, event.t > cutoff {
                carried.append(event)
                continue
            }
            if event.t < lastT { event.t = lastT }
            lastT = event.t
            body(event)
        }
    }
}

extension RecorderState.Batch {
    /// The attributes of the event at `position`, if it has any.
    @inline(__always)
    func attrs(of position: Int) -> [Attribute]? {
        attrs.isEmpty ? nil : attrs[firstSequence + position]
    }
}
