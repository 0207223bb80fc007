import LifetraceCore

/// The recorder's buffer and bookkeeping, touched only under the recorder's lock.
struct RecorderState {
    struct OpenSpan {
        var sequence: Int
        var start: Int64
    }

    /// Events not yet written, in time order.
    var pending: [LifecycleEvent]
    /// The sequence number of `pending[0]`.
    var firstSequence = 0
    /// Spans whose events are buffered without their duration yet.
    var openSpans: [OpenSpan] = []
    var lastT: Int64 = 0
    var nextTaskID: Int64 = 0
    var droppedTotal = 0
    private var droppedSinceReport = 0
    private var firstDropT: Int64 = 0
    private var spare: [LifecycleEvent]

    init(capacity: Int) {
        pending = []
        pending.reserveCapacity(capacity)
        spare = []
        spare.reserveCapacity(capacity)
        openSpans.reserveCapacity(16)
    }

    mutating func append(_ event: LifecycleEvent) -> Int {
        pending.append(event)
        lastT = event.t
        return firstSequence + pending.count - 1
    }

    mutating func noteDrop(at t: Int64) {
        if droppedSinceReport == 0 { firstDropT = t }
        droppedSinceReport += 1
        droppedTotal += 1
    }

    /// Appends the `recorder.dropped` event for drops not yet reported, now that there is room.
    mutating func reportDrops(at t: Int64) {
        guard droppedSinceReport > 0, pending.count < pending.capacity else { return }
        _ = append(LifecycleEvent(t: t, kind: .recorderDropped, dur: t - firstDropT,
                                  attrs: [Attribute("dropped", .int(Int64(droppedSinceReport)))]))
        droppedSinceReport = 0
    }

    /// Removes and returns the events that may be written now: all those before the oldest span still open
    /// for less than `maxHold`. Older spans are let go: written without `dur`, marked `unfinished`.
    mutating func takeWritable(now: Int64, maxHold: Int64, force: Bool) -> [LifecycleEvent] {
        var cut = pending.count
        var released: [Int] = []
        for span in openSpans {
            let index = span.sequence - firstSequence
            guard index >= 0, index < pending.count else { continue }
            if force || now - span.start > maxHold {
                released.append(span.sequence)
                pending[index].attrs = (pending[index].attrs ?? []) + [Attribute("unfinished", .bool(true))]
            } else {
                cut = min(cut, index)
            }
        }
        openSpans.removeAll { released.contains($0.sequence) }
        spare.removeAll(keepingCapacity: true)
        if cut == pending.count {
            swap(&spare, &pending)
        } else {
            spare.append(contentsOf: pending[0..<cut])
            pending.removeFirst(cut)
        }
        firstSequence += spare.count
        return spare
    }
}
