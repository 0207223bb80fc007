import LifetraceCore

/// Puts the batches that the writer takes from every shard into one time order.
///
/// Each shard's batch is in time order, because a shard stamps its events under its lock. Across shards, an
/// event stamped before the writer began taking batches (before `cutoff`) is in this round's batches; one
/// stamped at or after it may still be on its way into a shard already taken, so it is carried to the next
/// round instead of being written ahead of it. Relayed events, timestamped elsewhere, are written in the order
/// they came; a relayed time below what was written already is raised to it, so the trace never goes back.
struct BatchMerger {
    private var carried: [LifecycleEvent] = []
    /// The time of the last event handed out.
    private(set) var lastT: Int64 = 0

    /// Whether events are carried to the next round.
    var isHoldingEvents: Bool { !carried.isEmpty }

    /// Merges `batches` with what earlier rounds carried and passes every event that may be written now to
    /// `body`, in time order; events stamped at or after `cutoff` wait for the next round.
    mutating func merge(_ batches: [RecorderState.Batch], cutoff: Int64, _ body: (LifecycleEvent) -> Void) {
        var sources: [[(event: LifecycleEvent, relayed: Bool)]] = [carried.map { ($0, false) }]
        for batch in batches where !batch.isEmpty {
            sources.append(batch.events.indices.map { index in
                let recorded = batch.events[index]
                let attrs = batch.attrs.isEmpty ? nil : batch.attrs[batch.firstSequence + index]
                return (recorded.event(strings: batch.strings, attrs: attrs), recorded.relayed)
            })
        }
        carried.removeAll(keepingCapacity: true)
        var positions = [Int](repeating: 0, count: sources.count)
        while true {
            var best = -1
            for source in sources.indices where positions[source] < sources[source].count {
                if best < 0 || sources[source][positions[source]].event.t < sources[best][positions[best]].event.t {
                    best = source
                }
            }
            guard best >= 0 else { break }
            var (event, relayed) = sources[best][positions[best]]
            positions[best] += 1
            if !relayed, event.t >= cutoff {
                carried.append(event)
                continue
            }
            if event.t < lastT { event.t = lastT }
            lastT = event.t
            body(event)
        }
    }
}
