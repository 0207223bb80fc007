import LifetraceCore

/// The visitor of the full decode (``EventBlockDecoder/decode(_:into:)``): writes each event walked into its
/// ``EventRecord``, and the fields few events carry into the block's extras and attributes.
///
/// Each field goes straight to the record in the array: a record put together on the stack and copied whole
/// is read back before its parts are written, and stalls.
struct EventRecordWriter: EventBlockVisitor {
    static var readsTimes: Bool { true }

    /// The block's records, one per event, each written whole by the walk.
    var rows = UnsafeMutableBufferPointer<EventRecord>(start: nil, count: 0)
    /// The block's extras, moved out of it while the walk runs.
    var extras: [EventExtras]
    /// The block's attributes, moved out of it while the walk runs.
    var attributes: [RecordAttribute]

    /// A writer appending to `extras` and `attributes`.
    init(extras: [EventExtras], attributes: [RecordAttribute]) {
        self.extras = extras
        self.attributes = attributes
    }

    /// Empties the extras and attributes, keeping their capacity.
    mutating func removeAll() {
        extras.removeAll(keepingCapacity: true)
        attributes.removeAll(keepingCapacity: true)
    }

    @inline(__always)
    mutating func event(_ i: Int, kind: EventKind, tag: UInt8, fields: EventFields) {
        rows[i] = EventRecord(kind: kind, tag: tag, fields: fields)
    }

    @inline(__always)
    mutating func unknownEvent(_ i: Int, fields: EventFields) {
        // Kept in place until the block is read, then dropped.
        rows[i] = EventRecord(kind: .heartbeat, tag: EventKind.heartbeat.rawValue, fields: fields)
    }

    @inline(__always)
    mutating func time(_ i: Int, t: Int64, dur: Int64) {
        rows[i].t = t
        rows[i].dur = dur
    }

    @inline(__always)
    mutating func scene(_ i: Int, _ scene: EventRecord.StringIndex) {
        rows[i].scene = scene
    }

    @inline(__always)
    mutating func phase(_ i: Int, _ phase: ScenePhase) {
        rows[i].phase = phase
    }

    @inline(__always)
    mutating func attribute(_ attribute: RecordAttribute) {
        attributes.append(attribute)
    }

    @inline(__always)
    mutating func extras(_ i: Int, _ extras: EventExtras) {
        rows[i].extra = Int32(truncatingIfNeeded: self.extras.count)
        self.extras.append(extras)
    }
}
