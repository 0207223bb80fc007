import LifetraceFormat

extension PerfettoWireWriter {
    /// The iid of `category`, sent in the packet's interned data (`event_categories`, 1) the first time.
    mutating func intern(_ category: ExportCategory) -> UInt64 {
        let ordinal = category.ordinal
        if categoryIids[ordinal] != 0 { return categoryIids[ordinal] }
        categoryCount += 1
        let iid = UInt64(categoryCount)
        categoryIids[ordinal] = iid
        appendInterned(entries: 1, iid: iid, name: category.rawValue)
        return iid
    }

    /// The iid of the event name `name` (0: written inline, the table being full), found by its number where it
    /// has one.
    mutating func intern(eventName name: ExportName) -> UInt64 {
        if name.key >= 0, nameIids[name.key] != 0 { return nameIids[name.key] }
        guard let iid = intern(eventName: name.text) else { return 0 }
        if name.key >= 0 { nameIids[name.key] = iid }
        return iid
    }

    /// The iid of the event name `name`, sent in the packet's interned data (`event_names`, 2) the first time;
    /// `nil` once the table is full.
    mutating func intern(eventName name: String) -> UInt64? {
        if let iid = eventNames[name] { return iid }
        guard eventNames.count < PerfettoEncoder.internedLimit else { return nil }
        let iid = UInt64(eventNames.count + 1)
        eventNames[name] = iid
        appendInterned(entries: 2, iid: iid, name: name)
        return iid
    }

    /// The iid of the annotation name `name`, sent in the packet's interned data (`debug_annotation_names`, 3)
    /// the first time; `nil` once the table is full.
    mutating func intern(annotationName name: String) -> UInt64? {
        if let iid = annotationNames[name] { return iid }
        guard annotationNames.count < PerfettoEncoder.internedLimit else { return nil }
        let iid = UInt64(annotationNames.count + 1)
        annotationNames[name] = iid
        appendInterned(entries: 3, iid: iid, name: name)
        return iid
    }

    /// Appends an `EventCategory`, `EventName` or `DebugAnnotationName` (iid 1, name 2) to the interned data.
    mutating func appendInterned(entries: UInt8, iid: UInt64, name: String) {
        let nameLength = name.utf8.count
        interned.append(entries << 3 | 2)
        interned.appendVarint(UInt64(1 + iid.varintSize + 1 + UInt64(nameLength).varintSize + nameLength))
        interned.append(1 << 3)
        interned.appendVarint(iid)
        interned.append(2 << 3 | 2)
        interned.appendLengthPrefixed(name)
    }
}
