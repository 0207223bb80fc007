import LifetraceCore
import LifetraceFormat

/// The fields of one event as an export shows them, read where the decoder left them: the event's record and,
/// for its strings and rarer fields, the block it came in. Nothing is copied into a ``LifecycleEvent``, so an
/// exported event costs no string copy, no reference count and no allocation.
///
/// It points into a block: the exporter's pinned copy of the block the analyzer lent (``PinnedBlock``), which lives
/// as long as the calls that carry the event are to be made (an ``EncodingThread`` batch holds it), or the lent block
/// itself for an exporter that writes during the analyzer's call. Plain data, so that a kept call copies it as bytes.
struct ExportEventFields: BitwiseCopyable {
    /// The event's record.
    let record: EventRecord
    /// The block holding it.
    private let block: UnsafePointer<EventBlock>

    /// The fields of `record`, an event of the block `block` points to.
    init(_ record: EventRecord, in block: UnsafePointer<EventBlock>) {
        self.record = record
        self.block = block
    }

    /// The event's kind.
    var kind: EventKind { record.kind }
    /// Its time (ns).
    var t: Int64 { record.t }
    /// Its scene, if it names one: kept bounded (``KeptName``), as every name the export keeps or writes, so that
    /// its memory and its output grow per scene, not per byte of the scenes' names.
    var scene: String? { string(record.scene).map(KeptName.bounded) }
    /// Its handler's duration, if it carries one.
    var dur: Int64? { record.duration }
    /// Its SwiftUI scene phase.
    var phase: ScenePhase? { record.phase }
    /// Its background task's identifier.
    var task: Int64? { record.fields.contains(.task) ? extras.task : nil }
    /// Its process identifier.
    var pid: Int64? { record.fields.contains(.pid) ? extras.pid : nil }
    /// Its background task's name.
    var name: String? { record.extra >= 0 ? string(extras.name) : nil }
    /// Its launch or exit reason.
    var reason: String? { record.extra >= 0 ? string(extras.reason) : nil }
    /// A custom event's label.
    var label: String? { record.extra >= 0 ? string(extras.label) : nil }
    /// Where a custom event's label is among its block's strings: the same label, the same place, in one block.
    var labelIndex: Int? { record.extra >= 0 && extras.label != EventRecord.absent ? Int(extras.label) : nil }

    /// Its full name, as ``LifecycleEvent/eventName`` spells it.
    var eventName: String {
        if record.kind == .custom, let label { return "custom." + label }
        return record.kind.name
    }

    /// One field of an event besides its time, kind and attributes.
    enum Field {
        case scene(String)
        case dur(Int64)
        case task(Int64)
        case name(String)
        case phase(ScenePhase)
        case reason(String)
        case pid(Int64)
    }

    /// Calls `body` with each field the event carries, in the order JSON Lines writes them (`scene`, `dur`,
    /// `task`, `name`, `phase`, `reason`, `pid`); its attributes come apart (``forEachAttribute(_:)``).
    @inline(__always)
    func forEachField(_ body: (Field) -> Void) {
        if let scene { body(.scene(scene)) }
        if let dur { body(.dur(dur)) }
        // The rarer fields, past one test of the record.
        guard record.extra >= 0 || record.phase != nil else { return }
        if let task { body(.task(task)) }
        if let name { body(.name(name)) }
        if let phase { body(.phase(phase)) }
        if let reason { body(.reason(reason)) }
        if let pid { body(.pid(pid)) }
    }

    /// Whether it carries the `attrs` field (even empty).
    var hasAttributes: Bool { record.extra >= 0 && extras.attributeCount >= 0 }

    /// Whether it has the attribute `key`.
    func hasAttribute(_ key: String) -> Bool {
        record.extra >= 0 && block.pointee.attribute(key, of: record) != nil
    }

    /// Calls `body` with each attribute's key and value, in the order they were written.
    func forEachAttribute(_ body: (String, AttributeValue) -> Void) {
        guard hasAttributes else { return }
        let first = Int(extras.attributeStart)
        for position in first..<first + Int(extras.attributeCount) {
            let attribute = block.pointee.attributes[position]
            let value: AttributeValue =
                switch attribute.value {
                case let .string(index): .string(block.pointee.strings[Int(index)])
                case let .int(number): .int(number)
                case let .double(number): .double(number)
                case let .bool(flag): .bool(flag)
                }
            body(block.pointee.strings[Int(attribute.key)], value)
        }
    }

    private var extras: EventExtras { block.pointee.extras[Int(record.extra)] }

    private func string(_ index: EventRecord.StringIndex) -> String? {
        index == EventRecord.absent ? nil : block.pointee.strings[Int(index)]
    }
}

extension ExportName {
    /// The name of the event `fields` shows: its kind's, numbered, or `custom.<label>`, not numbered.
    init(of fields: ExportEventFields) {
        if fields.kind == .custom {
            self.init(fields.eventName)
        } else {
            self.init(fields.kind)
        }
    }
}
