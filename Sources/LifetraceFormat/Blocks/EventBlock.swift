package import LifetraceCore

/// A run of consecutive events held as plain records with one shared string table: what a data frame
/// decodes to, and the unit the analyzer reads.
///
/// Decoding into a block copies no string per event and allocates nothing per event; a block is reused
/// from one frame to the next, keeping its capacity. Blocks built from ``LifecycleEvent`` values (JSON Lines,
/// events fed one at a time) intern their strings as they go.
package struct EventBlock: Sendable {
    /// The events, in order.
    package var records: [EventRecord] = []
    /// The attributes of every record, in order.
    package var attributes: [RecordAttribute] = []
    /// The strings the records refer to.
    package var strings: [String] = []
    /// Where each interned string is, for blocks built with ``append(_:)``.
    private var interned: [String: EventRecord.StringIndex] = [:]

    /// An empty block.
    package init() {}

    /// The number of events.
    @inlinable
    package var count: Int { records.count }

    /// Empties the block, keeping its capacity.
    package mutating func removeAll() {
        records.removeAll(keepingCapacity: true)
        attributes.removeAll(keepingCapacity: true)
        strings.removeAll(keepingCapacity: true)
        interned.removeAll(keepingCapacity: true)
    }

    /// The string at `index`, `nil` for ``EventRecord/absent``.
    @inlinable
    package func string(_ index: EventRecord.StringIndex) -> String? {
        index == EventRecord.absent ? nil : strings[Int(index)]
    }

    /// The event at `row` as a ``LifecycleEvent``.
    package func event(at row: Int) -> LifecycleEvent {
        let record = records[row]
        var attrs: [Attribute]?
        if record.attributeCount >= 0 {
            let start = Int(record.attributeStart)
            attrs = attributes[start..<(start + Int(record.attributeCount))].map { attribute in
                let value: AttributeValue
                switch attribute.value {
                case let .string(index): value = .string(strings[Int(index)])
                case let .int(number): value = .int(number)
                case let .double(number): value = .double(number)
                case let .bool(flag): value = .bool(flag)
                }
                return Attribute(strings[Int(attribute.key)], value)
            }
        }
        return LifecycleEvent(
            t: record.t, kind: record.kind, label: string(record.label), scene: string(record.scene),
            dur: record.duration, task: record.fields.contains(.task) ? record.task : nil, name: string(record.name),
            phase: record.phase, reason: string(record.reason), pid: record.fields.contains(.pid) ? record.pid : nil,
            attrs: attrs)
    }

    /// The event name of the record at `row`, as ``LifecycleEvent/eventName`` gives it.
    package func eventName(at row: Int) -> String {
        let record = records[row]
        if record.kind == .custom, let label = string(record.label) { return "custom." + label }
        return record.kind.name
    }

    /// Appends `event`, interning its strings.
    package mutating func append(_ event: borrowing LifecycleEvent) {
        var record = EventRecord(t: event.t, kind: event.kind)
        record.fields = event.presentFields
        record.dur = event.dur ?? 0
        record.task = event.task ?? 0
        record.pid = event.pid ?? 0
        record.phase = event.phase
        record.scene = intern(event.scene)
        record.name = intern(event.name)
        record.reason = intern(event.reason)
        record.label = intern(event.label)
        if let attrs = event.attrs {
            record.attributeStart = Int32(attributes.count)
            record.attributeCount = Int32(attrs.count)
            for attribute in attrs {
                let value: RecordAttributeValue
                switch attribute.value {
                case let .string(text): value = .string(intern(text))
                case let .int(number): value = .int(number)
                case let .double(number): value = .double(number)
                case let .bool(flag): value = .bool(flag)
                }
                attributes.append(RecordAttribute(key: intern(attribute.key), value: value))
            }
        }
        records.append(record)
    }

    private mutating func intern(_ string: String?) -> EventRecord.StringIndex {
        guard let string else { return EventRecord.absent }
        if let index = interned[string] { return index }
        let index = EventRecord.StringIndex(strings.count)
        strings.append(string)
        interned[string] = index
        return index
    }
}
