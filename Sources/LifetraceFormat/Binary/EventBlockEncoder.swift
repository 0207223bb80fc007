import LifetraceCore

/// Builds the content of one data frame: an event block with its own base timestamp and string table,
/// its events stored as columns (kinds, field presence, time deltas, durations, other fields).
///
/// Every block decodes on its own, so a reader can start at any frame and a crash loses at most the frame
/// being written. See `Schemas/lifetrace-format.md`, "Event block".
struct EventBlockEncoder {
    private var strings: [String: UInt32] = [:]
    /// The last string interned and its index: consecutive events mostly name the same scene.
    private var lastString: String?
    private var lastIndex: UInt32 = 0
    private var stringBytes: [UInt8] = []
    private var kinds: [UInt8] = []
    private var presence: [UInt8] = []
    private var deltas = SplitIntegerColumnEncoder()
    private var durations = SplitIntegerColumnEncoder()
    private var records: [UInt8] = []
    private(set) var eventCount = 0
    private(set) var firstT: Int64 = 0
    private(set) var lastT: Int64 = 0

    init(reservingCapacity capacity: Int = 1 << 20) {
        records.reserveCapacity(capacity / 2)
    }

    /// The size of the block's content so far, give or take its few header bytes.
    var byteCount: Int {
        kinds.count + presence.count + deltas.byteCount + durations.byteCount + records.count + stringBytes.count
    }

    var isEmpty: Bool { eventCount == 0 }

    /// Appends an event; its `t` must not be smaller than the previous event's.
    mutating func append(_ event: LifecycleEvent) {
        if eventCount == 0 {
            firstT = event.t
            lastT = event.t
        }
        precondition(event.t >= lastT, "events must be appended in time order")
        kinds.append(event.kind.rawValue)
        deltas.append(UInt64(event.t - lastT))
        lastT = event.t
        let fields = event.presentFields
        presence.appendVarint(UInt64(fields.rawValue))
        if let scene = event.scene { records.appendVarint(UInt64(intern(scene))) }
        if let dur = event.dur { durations.append(UInt64(dur)) }
        if let task = event.task { records.appendZigzag(task) }
        if let name = event.name { records.appendVarint(UInt64(intern(name))) }
        if let phase = event.phase { records.append(phase.rawValue) }
        if let reason = event.reason { records.appendVarint(UInt64(intern(reason))) }
        if let pid = event.pid { records.appendZigzag(pid) }
        if let label = event.label { records.appendVarint(UInt64(intern(label))) }
        if let attrs = event.attrs { appendAttributes(attrs) }
        eventCount += 1
    }

    private mutating func appendAttributes(_ attrs: [Attribute]) {
        records.appendVarint(UInt64(attrs.count))
        for attribute in attrs {
            records.appendVarint(UInt64(intern(attribute.key)))
            switch attribute.value {
            case let .string(value):
                records.append(AttributeTypeTag.string.rawValue)
                records.appendVarint(UInt64(intern(value)))
            case let .int(value):
                records.append(AttributeTypeTag.int.rawValue)
                records.appendZigzag(value)
            case let .double(value):
                records.append(AttributeTypeTag.double.rawValue)
                records.appendUInt64LE(value.bitPattern)
            case let .bool(value):
                records.append((value ? AttributeTypeTag.boolTrue : .boolFalse).rawValue)
            }
        }
    }

    @inline(__always)
    private mutating func intern(_ string: String) -> UInt32 {
        if string == lastString { return lastIndex }
        let index = internSlow(string)
        lastString = string
        lastIndex = index
        return index
    }

    private mutating func internSlow(_ string: String) -> UInt32 {
        if let index = strings[string] { return index }
        let index = UInt32(strings.count)
        strings[string] = index
        stringBytes.appendLengthPrefixed(string)
        return index
    }

    /// Writes the block's content into `content` (replacing what it held) and starts a new, empty block.
    mutating func finish(into content: inout [UInt8]) {
        content.removeAll(keepingCapacity: true)
        content.reserveCapacity(byteCount + 32)
        content.append(FormatConstants.eventBlockType)
        content.appendVarint(UInt64(firstT))
        content.appendVarint(UInt64(eventCount))
        content.appendVarint(UInt64(strings.count))
        content.append(contentsOf: stringBytes)
        content.appendVarint(UInt64(presence.count))
        content.appendVarint(UInt64(durations.count))
        deltas.appendPlaneSizes(to: &content)
        durations.appendPlaneSizes(to: &content)
        content.appendVarint(UInt64(records.count))
        content.append(contentsOf: kinds)
        content.append(contentsOf: presence)
        deltas.appendData(to: &content)
        durations.appendData(to: &content)
        content.append(contentsOf: records)
        kinds.removeAll(keepingCapacity: true)
        presence.removeAll(keepingCapacity: true)
        deltas.removeAll()
        durations.removeAll()
        strings.removeAll(keepingCapacity: true)
        lastString = nil
        stringBytes.removeAll(keepingCapacity: true)
        records.removeAll(keepingCapacity: true)
        eventCount = 0
    }
}
