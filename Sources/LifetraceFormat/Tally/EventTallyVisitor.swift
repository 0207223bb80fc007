import LifetraceCore

/// The visitor of the counting walk (``EventBlockDecoder/tally(_:into:)``): counts each event by kind and marks
/// the strings that name a scene, writing nothing per event but a count and a flag.
struct EventTallyVisitor: EventBlockVisitor {
    /// The walk need not decode times: it checks them per block when it can.
    static var readsTimes: Bool { false }

    /// How many events of each tag.
    let counts: UnsafeMutableBufferPointer<Int>
    /// Which strings of the block name a scene of an event of a known kind.
    let named: UnsafeMutableBufferPointer<Bool>
    /// Whether the event being walked is of a known kind: those of newer kinds are not reported, scenes included.
    private var known = true

    /// A visitor counting into `counts` (256, by tag) and marking `named` (one per string of the block).
    init(counts: UnsafeMutableBufferPointer<Int>, named: UnsafeMutableBufferPointer<Bool>) {
        self.counts = counts
        self.named = named
    }

    @inline(__always)
    mutating func event(_ i: Int, kind: EventKind, tag: UInt8, fields: EventFields) {
        counts[Int(tag)] &+= 1
        known = true
    }

    @inline(__always)
    mutating func unknownEvent(_ i: Int, fields: EventFields) {
        known = false
    }

    @inline(__always)
    mutating func scene(_ i: Int, _ scene: EventRecord.StringIndex) {
        if known { named[Int(scene)] = true }
    }

    @inline(__always)
    mutating func time(_ i: Int, t: Int64, dur: Int64) {}

    @inline(__always)
    mutating func phase(_ i: Int, _ phase: ScenePhase) {}

    @inline(__always)
    mutating func attribute(_ attribute: RecordAttribute) {}

    @inline(__always)
    mutating func extras(_ i: Int, _ extras: EventExtras) {}
}
