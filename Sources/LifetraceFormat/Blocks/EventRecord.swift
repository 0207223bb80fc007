package import LifetraceCore

/// One event of an ``EventBlock``, made of plain values only: its strings are indexes into the block's
/// string table and its attributes a range of the block's attribute list.
///
/// Copying a record copies 64 bytes and touches no reference count, so the analyzer can keep and compare
/// records freely; ``EventBlock/event(at:)`` turns one back into a ``LifecycleEvent`` when it is needed
/// whole (a finding's context, a report's mark).
package struct EventRecord: Sendable {
    /// A string of the block, by index (0 or more); ``EventRecord/absent`` (-1) for a field the event does
    /// not carry, so that a hot path may test the sign.
    package typealias StringIndex = Int32

    /// The string index of an absent field.
    @inlinable
    package static var absent: StringIndex { -1 }

    /// Nanoseconds since the start of the trace.
    package var t: Int64
    /// The handler's duration; 0 when absent (see ``fields``).
    package var dur: Int64
    /// The background task identifier; 0 when absent.
    package var task: Int64
    /// The process identifier; 0 when absent.
    package var pid: Int64
    /// The scene identifier.
    package var scene: StringIndex
    /// The background task's name.
    package var name: StringIndex
    /// The launch or exit reason.
    package var reason: StringIndex
    /// For custom events, the label.
    package var label: StringIndex
    /// The first of the event's attributes in ``EventBlock/attributes``.
    package var attributeStart: Int32
    /// The number of attributes; -1 when the event carries no `attrs` field at all.
    package var attributeCount: Int32
    /// The event's kind.
    package var kind: EventKind
    /// The SwiftUI scene phase.
    package var phase: ScenePhase?
    /// The fields the event carries.
    package var fields: EventFields

    /// A record of `kind` at `t` with no optional field.
    @inlinable
    package init(t: Int64, kind: EventKind) {
        self.t = t
        self.dur = 0
        self.task = 0
        self.pid = 0
        self.scene = Self.absent
        self.name = Self.absent
        self.reason = Self.absent
        self.label = Self.absent
        self.attributeStart = 0
        self.attributeCount = -1
        self.kind = kind
        self.phase = nil
        self.fields = []
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
