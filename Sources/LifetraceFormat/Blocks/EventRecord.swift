package import LifetraceCore

/// One event of an ``EventBlock``, made of plain values only: the fields nearly every event carries, its
/// strings as indexes into the block's string table, and the rest (task, process, names, attributes) in the
/// block's ``EventBlock/extras``, for the few events that carry them.
///
/// A record is 32 bytes and touches no reference count (it is `BitwiseCopyable`, checked by the compiler), so the
/// analyzer can copy and keep records freely, and an export keep them in raw memory;
/// ``EventBlock/event(at:)`` turns one back into a ``LifecycleEvent`` when it is needed whole (a finding's
/// context, a report's mark).
package struct EventRecord: Sendable, BitwiseCopyable {
    /// A string of the block, by index (0 or more); ``EventRecord/absent`` (-1) for a field the event does
    /// not carry, so that a hot path may test the sign.
    package typealias StringIndex = Int32

    /// The string index of an absent field.
    @inlinable
    package static var absent: StringIndex { -1 }

    /// The fields kept in ``EventBlock/extras`` rather than in the record.
    @inlinable
    package static var extraFields: EventFields { [.task, .name, .reason, .pid, .label, .attrs] }

    /// Nanoseconds since the start of the trace.
    package var t: Int64
    /// The handler's duration; 0 when absent (see ``fields``).
    package var dur: Int64
    /// The scene identifier.
    package var scene: StringIndex
    /// The event's entry in ``EventBlock/extras``; -1 when it carries none of ``extraFields``.
    package var extra: Int32
    /// The event's kind.
    package private(set) var kind: EventKind
    /// The kind's tag (its raw value), kept beside it: tables indexed by kind read it with no conversion
    /// (a kind's raw value is computed by a jump on the kind).
    package private(set) var tag: UInt8
    /// The SwiftUI scene phase.
    package var phase: ScenePhase?
    /// The fields the event carries.
    package var fields: EventFields

    /// A record of `kind` at `t` with no optional field.
    @inlinable
    package init(t: Int64, kind: EventKind) {
        self.t = t
        self.dur = 0
        self.scene = Self.absent
        self.extra = -1
        self.kind = kind
        self.tag = kind.rawValue
        self.phase = nil
        self.fields = []
    }

    /// A record of `kind`, whose tag is `tag`, carrying `fields`, at time 0, with no field set yet: what
    /// decoding starts from.
    @inline(__always)
    init(kind: EventKind, tag: UInt8, fields: EventFields) {
        assert(kind.rawValue == tag)
        self.t = 0
        self.dur = 0
        self.scene = Self.absent
        self.extra = -1
        self.kind = kind
        self.tag = tag
        self.phase = nil
        self.fields = fields
    }

    /// Whether the event names a scene.
    @inlinable
    package var hasScene: Bool { scene != Self.absent }

    /// The duration, `nil` when the event carries none.
    @inlinable
    package var duration: Int64? { fields.contains(.dur) ? dur : nil }

    /// The handler's end: `t` plus the duration, if any.
    @inlinable
    package var end: Int64 { t + dur }
}

/// The value of an attribute in an ``EventBlock``: strings as indexes into the block's string table.
package enum RecordAttributeValue: Sendable {
    /// A string of the block.
    case string(EventRecord.StringIndex)
    /// An integral number.
    case int(Int64)
    /// A finite number with a fraction or an exponent.
    case double(Double)
    /// A bool.
    case bool(Bool)
}

/// One attribute in an ``EventBlock``.
package struct RecordAttribute: Sendable {
    /// The key, a string of the block.
    package var key: EventRecord.StringIndex
    /// The value.
    package var value: RecordAttributeValue

    /// Creates an attribute.
    package init(key: EventRecord.StringIndex, value: RecordAttributeValue) {
        self.key = key
        self.value = value
    }
}
