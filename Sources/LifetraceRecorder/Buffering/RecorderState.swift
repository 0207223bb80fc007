import LifetraceCore

/// One shard's buffer and bookkeeping, touched only under the shard's lock.
struct RecorderState {
    struct OpenSpan {
        var sequence: Int
        var start: Int64
    }

    /// Whether a live check takes each event as it is recorded (``EventTap``): read here, under the shard's lock
    /// the recording thread holds anyway, so that with no check the tap costs nothing more.
    var tapped = false

    /// What the writer takes: events, the strings their ids name, and the attributes of those that have any.
    struct Batch {
        var events: [RecordedEvent]
        var strings: [String]
        var attrs: [Int: [Attribute]]
        var firstSequence: Int
        /// The time of the first event left buffered behind an open span: no event of another shard after it
        /// may be written before it (one at that very time may: ``BatchMerger``).
        var heldFrom: Int64?

        var isEmpty: Bool { events.isEmpty }
    }

    /// Events not yet written, in time order.
    private(set) var pending: [RecordedEvent]
    /// The sequence number of `pending[0]`.
    private(set) var firstSequence = 0
    /// Attributes of pending events, by sequence number (rare: kept aside so events stay plain data).
    private var attrs: [Int: [Attribute]] = [:]
    private(set) var strings = StringInterner()
    /// Spans whose events are buffered without their duration yet.
    var openSpans: [OpenSpan] = []
    private(set) var lastT: Int64 = 0
    private(set) var droppedTotal = 0
    /// The buffer is full and the writer queue was asked to take it.
    var writeScheduled = false
    /// The recorder is closing: events are refused and counted as dropped.
    var isClosed = false
    private var droppedSinceReport = 0
    private var firstDropT: Int64 = 0
    private var spare: [RecordedEvent]

    init(capacity: Int) {
        pending = []
        pending.reserveCapacity(capacity)
        spare = []
        spare.reserveCapacity(capacity)
        openSpans.reserveCapacity(16)
    }

    var count: Int { pending.count }

    /// Whether events were dropped that no `recorder.dropped` event says yet.
    var hasUnreportedDrops: Bool { droppedSinceReport > 0 }

    /// What ``append(_:at:label:scene:dur:task:name:phase:reason:pid:attrs:relayed:)`` returns for an event it dropped.
    static let dropped = -1
    /// The most bytes of text (strings, attribute keys and values) the recorder keeps in one event: a lifecycle
    /// event's text is short, and one this long still reads back from either format (a JSON Lines line is read up
    /// to 1 MiB, each byte escaped as `\u0000` at worst).
    static let maximumTextBytes = 128 << 10
    /// The most attributes the recorder keeps in one event.
    static let maximumAttributes = 1024

    /// Whether an event of `textBytes` bytes of text and `attributeCount` attributes is more than the recorder keeps.
    @inline(__always)
    static func isTooLarge(textBytes: Int, attributeCount: Int) -> Bool {
        textBytes > maximumTextBytes || attributeCount > maximumAttributes
    }

    /// Appends an event with the timestamp `t` and returns its sequence number.
    @inline(__always)
    mutating func append(
        _ kind: EventKind, at t: Int64, label: String? = nil, scene: String? = nil, dur: Int64? = nil,
        task: Int64? = nil, name: String? = nil, phase: ScenePhase? = nil, reason: String? = nil, pid: Int64? = nil,
        attrs eventAttrs: [Attribute]? = nil, relayed: Bool = false
    ) -> Int {
        // An event of more than the recorder keeps is dropped and counted, as a full buffer's events are.
        if Self.isTooLarge(
            textBytes: LifecycleEvent.textByteCount(
                label: label, scene: scene, name: name, reason: reason,
                attrs: eventAttrs),
            attributeCount: eventAttrs?.count ?? 0)
        {
            noteDrop(at: t)
            return Self.dropped
        }
        let sequence = firstSequence + pending.count
        pending.append(
            RecordedEvent(
                t: t, kind: kind, label: label, scene: scene, dur: dur, task: task, name: name,
                phase: phase, reason: reason, pid: pid, hasAttrs: eventAttrs != nil,
                relayed: relayed, strings: &strings))
        // A key given twice keeps the value given last: a trace's attributes name each key once.
        if let eventAttrs { attrs[sequence] = eventAttrs.lastValuePerKey }
        lastT = t
        return sequence
    }

    /// Sets the duration of the buffered event `sequence`; `false` if it was written already.
    mutating func setDuration(_ dur: Int64, of sequence: Int) -> Bool {
        let index = sequence - firstSequence
        guard index >= 0, index < pending.count else { return false }
        pending[index].dur = dur
        pending[index].fields.insert(.dur)
        return true
    }

    /// Sets the `reason` of the buffered event `sequence`; `false` if it was written already.
    mutating func setReason(_ reason: String, of sequence: Int) -> Bool {
        let index = sequence - firstSequence
        guard index >= 0, index < pending.count else { return false }
        pending[index].reason = strings.intern(reason)
        pending[index].fields.insert(.reason)
        return true
    }

    mutating func noteDrop(at t: Int64) {
        if droppedSinceReport == 0 { firstDropT = t }
        droppedSinceReport += 1
        droppedTotal += 1
    }

    /// Appends the `recorder.dropped` event for drops not yet reported, if there is room or `force`.
    @inline(__always)
    mutating func reportDrops(at t: Int64, force: Bool = false) {
        if droppedSinceReport > 0 { reportPendingDrops(at: t, force: force) }
    }

    @inline(never)
    private mutating func reportPendingDrops(at t: Int64, force: Bool) {
        guard force || pending.count < pending.capacity else { return }
        _ = append(
            .recorderDropped, at: t, dur: t - firstDropT,
            attrs: [Attribute(Attribute.Key.dropped, .int(Int64(droppedSinceReport)))])
        droppedSinceReport = 0
    }

    /// Removes and returns the events that may be written now: all those before the oldest span still open
    /// for less than `maxHold` (none, `force`). Older spans are let go: written without `dur`, marked `unfinished`. Drops not
    /// yet reported are reported first, so that none goes unsaid however the recording ends.
    mutating func takeWritable(now: Int64, maxHold: Int64, force: Bool) -> Batch {
        reportDrops(at: max(now, lastT), force: true)
        var cut = pending.count
        var released: [Int] = []
        for span in openSpans {
            let index = span.sequence - firstSequence
            guard index >= 0, index < pending.count else { continue }
            if force || now - span.start > maxHold {
                released.append(span.sequence)
                // Set once: a key given twice is a trace no reader takes.
                attrs[span.sequence, default: []].removeAll { $0.key == Attribute.Key.unfinished }
                attrs[span.sequence, default: []].append(Attribute(Attribute.Key.unfinished, .bool(true)))
                pending[index].fields.insert(.attrs)
            } else {
                cut = min(cut, index)
            }
        }
        if !released.isEmpty { openSpans.removeAll { released.contains($0.sequence) } }
        spare.removeAll(keepingCapacity: true)
        if cut == pending.count {
            swap(&spare, &pending)
        } else {
            spare.append(contentsOf: pending[0..<cut])
            pending.removeFirst(cut)
        }
        var taken: [Int: [Attribute]] = [:]
        if !attrs.isEmpty {
            let end = firstSequence + spare.count
            for (sequence, value) in attrs where sequence < end { taken[sequence] = value }
            for sequence in taken.keys { attrs[sequence] = nil }
        }
        let batch = Batch(
            events: spare, strings: strings.values, attrs: taken, firstSequence: firstSequence,
            heldFrom: pending.first?.t)
        firstSequence += spare.count
        if strings.values.count > Self.keptStrings { restartStrings() }
        return batch
    }

    /// The most distinct strings the table keeps from one write to the next: past them, it starts again with the
    /// strings of the events still buffered, so that a session of ever new strings (a request id in a label) holds
    /// those of one write's events, not all it ever recorded.
    static let keptStrings = 256

    /// Starts the string table again with the strings of the buffered events, their ids renumbered. The batch
    /// taken last keeps the old table.
    private mutating func restartStrings() {
        let old = strings.values
        var fresh = StringInterner()
        for index in pending.indices { pending[index].renumberStrings(from: old, into: &fresh) }
        strings = fresh
    }
}
