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
    /// The fields few events carry, for the records whose ``EventRecord/extra`` points here.
    package var extras: [EventExtras] = []
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
        extras.removeAll(keepingCapacity: true)
        attributes.removeAll(keepingCapacity: true)
        strings.removeAll(keepingCapacity: true)
        interned.removeAll(keepingCapacity: true)
    }

    /// The string at `index`, `nil` for ``EventRecord/absent``.
    @inlinable
    package func string(_ index: EventRecord.StringIndex) -> String? {
        index == EventRecord.absent ? nil : strings[Int(index)]
    }

    /// The fields few events carry, of `record`; `nil` when it carries none of them.
    @inlinable
    package func extras(of record: EventRecord) -> EventExtras? {
        record.extra >= 0 ? extras[Int(record.extra)] : nil
    }

    /// The value of `record`'s attribute `key`, if it has one (its first, if it has several).
    package func attribute(_ key: String, of record: EventRecord) -> AttributeValue? {
        guard let extra = extras(of: record), extra.attributeCount > 0 else { return nil }
        let start = Int(extra.attributeStart)
        for attribute in attributes[start..<(start + Int(extra.attributeCount))]
        where strings[Int(attribute.key)] == key {
            switch attribute.value {
            case let .string(index): return .string(strings[Int(index)])
            case let .int(number): return .int(number)
            case let .double(number): return .double(number)
            case let .bool(flag): return .bool(flag)
            }
        }
        return nil
    }

    /// The label of a custom event.
    package func label(of record: EventRecord) -> String? {
        extras(of: record).flatMap { string($0.label) }
    }

    /// The event at `row` as a ``LifecycleEvent``.
    package func event(at row: Int) -> LifecycleEvent {
        let record = records[row]
        let extra = extras(of: record) ?? EventExtras()
        var attrs: [Attribute]?
        if extra.attributeCount >= 0 {
            let start = Int(extra.attributeStart)
            attrs = attributes[start..<(start + Int(extra.attributeCount))].map { attribute in
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
            t: record.t, kind: record.kind, label: string(extra.label), scene: string(record.scene),
            dur: record.duration, task: record.fields.contains(.task) ? extra.task : nil, name: string(extra.name),
            phase: record.phase, reason: string(extra.reason), pid: record.fields.contains(.pid) ? extra.pid : nil,
            attrs: attrs)
    }

    /// The event name of the record at `row`, as ``LifecycleEvent/eventName`` gives it.
    package func eventName(at row: Int) -> String {
        let record = records[row]
        if record.kind == .custom, let label = label(of: record) { return "custom." + label }
        return record.kind.name
    }

    /// Appends `event`, interning its strings.
    package mutating func append(_ event: borrowing LifecycleEvent) {
        var record = EventRecord(t: event.t, kind: event.kind)
        record.fields = event.presentFields
        record.dur = event.dur ?? 0
        record.phase = event.phase
        record.scene = intern(event.scene)
        if !record.fields.isDisjoint(with: EventRecord.extraFields) {
            var extra = EventExtras()
            extra.task = event.task ?? 0
            extra.pid = event.pid ?? 0
            extra.name = intern(event.name)
            extra.reason = intern(event.reason)
            extra.label = intern(event.label)
            if let attrs = event.attrs {
                extra.attributeStart = Int32(attributes.count)
                extra.attributeCount = Int32(attrs.count)
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
            record.extra = Int32(extras.count)
            extras.append(extra)
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
