import LifetraceFormat

extension PerfettoWireWriter {
    /// The iid of `category`, sent in the packet's interned data (`event_categories`, 1) the first time.
    mutating func intern(_ category: ExportCategory) -> UInt64 {
        let ordinal = category.ordinal
        if categoryIids[ordinal] != 0 { return categoryIids[ordinal] }
        categoryCount += 1
        let iid = UInt64(categoryCount)
        categoryIids[ordinal] = iid
        Self.appendInterned(entries: 1, iid: iid, name: category.rawValue, to: &interned)
        return iid
    }

    /// The iid of the event name `name` (0: written inline, the table being full), found by its number where it
    /// has one.
    mutating func intern(eventName name: ExportName) -> UInt64 {
        if name.key >= 0, name.key < nameIids.count, nameIids[name.key] != 0 { return nameIids[name.key] }
        guard let iid = intern(eventName: name.text) else { return 0 }
        if name.key >= 0 {
            nameIids.extend(toHold: name.key, with: 0)
            nameIids[name.key] = iid
        }
        return iid
    }

    /// The iid of the event name `name`, sent in the packet's interned data (`event_names`, 2) the first time;
    /// `nil` once the table is full.
    mutating func intern(eventName name: String) -> UInt64? {
        Self.intern(name, in: &eventNames, entries: 2, into: &interned)
    }

    /// The iid of the annotation name `name`, sent in the packet's interned data (`debug_annotation_names`, 3)
    /// the first time; `nil` once the table is full.
    mutating func intern(annotationName name: String) -> UInt64? {
        Self.intern(name, in: &annotationNames, entries: 3, into: &interned)
    }

    /// The iid of `name` in `table`, added with the next iid and appended to `interned` as an entry of the
    /// `entries` field the first time; `nil` once the table holds ``PerfettoEncoder/internedLimit`` names.
    private static func intern(
        _ name: String, in table: inout [String: UInt64], entries: UInt8,
        into interned: inout ByteWriter
    ) -> UInt64? {
        if let iid = table[name] { return iid }
        guard table.count < PerfettoEncoder.internedLimit else { return nil }
        let iid = UInt64(table.count + 1)
        table[name] = iid
        appendInterned(entries: entries, iid: iid, name: name, to: &interned)
        return iid
    }

    /// Appends an `EventCategory`, `EventName` or `DebugAnnotationName` (iid 1, name 2) to the interned data.
    static func appendInterned(entries: UInt8, iid: UInt64, name: String, to interned: inout ByteWriter) {
        let nameLength = name.utf8.count
        interned.append(entries << 3 | 2)
        interned.appendVarint(UInt64(1 + iid.varintSize + 1 + UInt64(nameLength).varintSize + nameLength))
        interned.append(1 << 3)
        interned.appendVarint(iid)
        interned.append(2 << 3 | 2)
        interned.appendLengthPrefixed(name)
    }
}
