import LifetraceCore

/// An event as the recorder buffers it: plain data with strings replaced by interned ids, so appending and
/// copying it touches no reference counts.
struct RecordedEvent {
    var t: Int64
    var dur: Int64 = 0
    var task: Int64 = 0
    var pid: Int64 = 0
    var fields: EventFields
    var kind: EventKind
    var phase: ScenePhase = .active
    var scene: UInt32 = 0
    var name: UInt32 = 0
    var reason: UInt32 = 0
    var label: UInt32 = 0
    /// Timestamped elsewhere and relayed (``Recorder/record(_:)``): written in the order it came, not held
    /// for events of other threads.
    var relayed: Bool

    /// An event from its fields, interning its strings; attributes are kept aside by the caller.
    @inline(__always)
    init(
        t: Int64, kind: EventKind, label: String?, scene: String?, dur: Int64?, task: Int64?, name: String?,
        phase: ScenePhase?, reason: String?, pid: Int64?, hasAttrs: Bool, relayed: Bool, strings: inout StringInterner
    ) {
        self.t = t
        self.relayed = relayed
        self.kind = kind
        var fields: EventFields = hasAttrs ? .attrs : []
        if let scene {
            fields.insert(.scene)
            self.scene = strings.intern(scene)
        }
        if let dur {
            fields.insert(.dur)
            self.dur = dur
        }
        if let task {
            fields.insert(.task)
            self.task = task
        }
        if let name {
            fields.insert(.name)
            self.name = strings.intern(name)
        }
        if let phase {
            fields.insert(.phase)
            self.phase = phase
        }
        if let reason {
            fields.insert(.reason)
            self.reason = strings.intern(reason)
        }
        if let pid {
            fields.insert(.pid)
            self.pid = pid
        }
        if let label {
            fields.insert(.label)
            self.label = strings.intern(label)
        }
        self.fields = fields
    }

    /// Gives the event's strings their ids in `fresh`, looking up their texts in `old`, the table they were
    /// interned in.
    mutating func renumberStrings(from old: [String], into fresh: inout StringInterner) {
        if fields.contains(.scene) { scene = fresh.intern(old[Int(truncatingIfNeeded: scene)]) }
        if fields.contains(.name) { name = fresh.intern(old[Int(truncatingIfNeeded: name)]) }
        if fields.contains(.reason) { reason = fresh.intern(old[Int(truncatingIfNeeded: reason)]) }
        if fields.contains(.label) { label = fresh.intern(old[Int(truncatingIfNeeded: label)]) }
    }

    /// The event again, its strings looked up in `strings` (the ids are indices into it, so they fit an `Int`).
    func event(strings: [String], attrs: [Attribute]?) -> LifecycleEvent {
        LifecycleEvent(
            t: t, kind: kind,
            label: fields.contains(.label) ? strings[Int(truncatingIfNeeded: label)] : nil,
            scene: fields.contains(.scene) ? strings[Int(truncatingIfNeeded: scene)] : nil,
            dur: fields.contains(.dur) ? dur : nil,
            task: fields.contains(.task) ? task : nil,
            name: fields.contains(.name) ? strings[Int(truncatingIfNeeded: name)] : nil,
            phase: fields.contains(.phase) ? phase : nil,
            reason: fields.contains(.reason) ? strings[Int(truncatingIfNeeded: reason)] : nil,
            pid: fields.contains(.pid) ? pid : nil,
            attrs: fields.contains(.attrs) ? attrs : nil)
    }
}

/// The recorder's string table: every distinct scene id, task name, reason and label gets a small id.
struct StringInterner {
    private var ids: [String: UInt32] = [:]
    /// The strings by id; a copy taken under the lock is what the writer resolves ids with.
    private(set) var values: [String] = []
    private var lastString: String?
    private var lastID: UInt32 = 0

    @inline(__always)
    mutating func intern(_ string: String) -> UInt32 {
        if string == lastString { return lastID }
        let id: UInt32
        if let known = ids[string] {
            id = known
        } else {
            id = UInt32(values.count)
            ids[string] = id
            values.append(string)
        }
        lastString = string
        lastID = id
        return id
    }
}
