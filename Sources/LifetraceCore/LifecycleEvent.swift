/// One lifecycle event: a timestamp, a kind and the kind's fields.
///
/// This is the unit every stage of lifetrace exchanges. Its JSON Lines form is
/// `{"t":1200000,"ev":"scene.didEnterBackground","scene":"S1","dur":35000000}`; see
/// `Schemas/trace-event.schema.json`. Optional fields that are `nil` are absent from every encoding.
public struct LifecycleEvent: Hashable, Sendable {
    /// Nanoseconds since the start of the trace, on the trace's clock. For a callback, when it began.
    public var t: Int64
    /// The event's kind.
    public var kind: EventKind
    /// For ``EventKind/custom`` events, the part of the name after `custom.`.
    public var label: String?
    /// The scene (session) identifier.
    public var scene: String?
    /// How long the handler took, in nanoseconds.
    public var dur: Int64?
    /// The background task identifier.
    public var task: Int64?
    /// The background task's name.
    public var name: String?
    /// The SwiftUI scene phase.
    public var phase: ScenePhase?
    /// The launch or exit reason.
    public var reason: String?
    /// The process identifier.
    public var pid: Int64?
    /// Free-form attributes, in the order they were written.
    public var attrs: [Attribute]?

    /// Creates an event.
    @inlinable
    public init(
        t: Int64,
        kind: EventKind,
        label: String? = nil,
        scene: String? = nil,
        dur: Int64? = nil,
        task: Int64? = nil,
        name: String? = nil,
        phase: ScenePhase? = nil,
        reason: String? = nil,
        pid: Int64? = nil,
        attrs: [Attribute]? = nil
    ) {
        self.t = t
        self.kind = kind
        self.label = label
        self.scene = scene
        self.dur = dur
        self.task = task
        self.name = name
        self.phase = phase
        self.reason = reason
        self.pid = pid
        self.attrs = attrs
    }

    /// The fields this event carries.
    @inlinable
    public var presentFields: EventFields {
        var fields: EventFields = []
        if scene != nil { fields.insert(.scene) }
        if dur != nil { fields.insert(.dur) }
        if task != nil { fields.insert(.task) }
        if name != nil { fields.insert(.name) }
        if phase != nil { fields.insert(.phase) }
        if reason != nil { fields.insert(.reason) }
        if pid != nil { fields.insert(.pid) }
        if label != nil { fields.insert(.label) }
        if attrs != nil { fields.insert(.attrs) }
        return fields
    }

    /// The fields the kind requires but this event lacks; empty for a well-formed event.
    public var missingFields: EventFields {
        kind.requiredFields.subtracting(presentFields)
    }

    /// The event's full name as JSON Lines writes it: the kind's name, or `custom.<label>`.
    public var eventName: String {
        if kind == .custom, let label { return "custom." + label }
        return kind.name
    }

    /// Reads a full event name, the inverse of ``eventName``: the kind, and for `custom.<label>` the label
    /// (empty after a bare `custom.`). `nil` for an unknown name and for `custom` without its dot.
    public static func parseName(_ name: String) -> (kind: EventKind, label: String?)? {
        var name = name
        return name.withUTF8(parseName(utf8:))
    }

    /// ``parseName(_:)`` of a name's UTF-8 bytes, valid UTF-8, with no string made but a custom event's label.
    package static func parseName(utf8 name: UnsafeBufferPointer<UInt8>) -> (kind: EventKind, label: String?)? {
        let custom = "custom.".utf8
        if name.starts(with: custom) {
            return (
                .custom, String(decoding: UnsafeBufferPointer(rebasing: name.dropFirst(custom.count)), as: UTF8.self)
            )
        }
        guard let kind = EventKind(utf8: name) else { return nil }
        return (kind, nil)
    }
}

extension LifecycleEvent {
    /// Removes every optional field, keeping `t` and `kind`.
    @inlinable
    public mutating func clearFields() {
        label = nil
        scene = nil
        dur = nil
        task = nil
        name = nil
        phase = nil
        reason = nil
        pid = nil
        attrs = nil
    }
}
