import LifetraceCore
import LifetraceFormat

/// Writes the events of ``ChromeJSONEncoder`` into ``buffer``; each event's method returns whether ``buffer``
/// holds ``ExportOutput/bufferSize`` bytes or more, to be written. A value type, so that its buffer is mutated in
/// place without the run-time exclusivity checks a class's stored properties take on every access.
struct ChromeJSONWriter {
    /// The bytes written and not yet handed to the sink.
    var buffer = ByteWriter()
    /// The time of the trace's first event, which times count from.
    var origin: Int64 = 0
    private var opened = false
    /// The scene written last in an event's arguments, as a JSON string.
    private var scenes = WrittenTextMemo()
    /// Where the events of the tracks written to lately are: their `pid` and `tid`, spelled once.
    private var places = ChromeTrackPlaces()
    /// A process's or track's name or labels, spelled here before they are written as JSON strings.
    private var text = ByteWriter()
    /// The numbered names written so far, as JSON strings, and where each one is in it by ``ExportName/key``
    /// (a count of 0: not written yet).
    private var knownNameBytes: [UInt8] = []
    private var knownNames = [(start: Int, count: Int)](repeating: (0, 0), count: ExportName.keyCount)
    /// Whether any time was floored to the microsecond (see ``ChromeJSONEncoder/exactRange``).
    private(set) var reducedPrecision = false

    mutating func declare(_ process: ExportProcess) {
        // The name and the labels (joined by ", ") spelled in ``text``, then written as JSON strings.
        text.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
        process.appendName(to: &text)
        beginMetadata("process_name", pid: process.pid, tid: 0, key: "name")
        text.withBytes { buffer.appendJSONString(utf8: $0) }
        endMetadata()
        text.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
        for position in 0..<process.labelCount {
            if position > 0 { text.appendLiteral(", ") }
            process.appendLabel(position, to: &text)
        }
        beginMetadata("process_labels", pid: process.pid, tid: 0, key: "labels")
        text.withBytes { buffer.appendJSONString(utf8: $0) }
        endMetadata()
        text.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
        beginMetadata("process_sort_index", pid: process.pid, tid: 0, key: "sort_index")
        buffer.writeDecimal(Int64(process.pid))
        endMetadata()
    }

    mutating func declare(_ track: ExportTrack, name: ExportTrackName) {
        // Its name and order, the two events run together around the name, with the track's place spelled once
        // (``ChromeTrackPlaces``): a trace of countless short processes declares a track every few events.
        text.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
        name.appendUTF8(to: &text)
        let place = places.place(of: track)
        separate()
        places.withPlaces { places in
            buffer.write(atMost: 32 + ChromeTrackPlaces.slotSize + 17) { cursor in
                cursor.literal("{\"name\":\"thread_name\",\"ph\":\"M\",")
                cursor.bytes(UnsafeRawBufferPointer(rebasing: places[place]))
                cursor.literal(",\"args\":{\"name\":")
            }
        }
        text.withBytes { buffer.appendJSONString(utf8: $0) }
        text.removeAll(keepingCapacityUpTo: PerfettoWireWriter.scratchLimit)
        places.withPlaces { places in
            buffer.write(atMost: 44 + ChromeTrackPlaces.slotSize + 22 + 11 + 2) { cursor in
                cursor.literal("}},\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",")
                cursor.bytes(UnsafeRawBufferPointer(rebasing: places[place]))
                cursor.literal(",\"args\":{\"sort_index\":")
                cursor.decimal(Int64(track.tid))
                cursor.literal("}}")
            }
        }
    }

    mutating func slice(
        on track: ExportTrack, name: ExportName, category: ExportCategory, from start: Int64, to end: Int64,
        _ arguments: ExportArguments
    ) -> Bool {
        var from = relative(start)
        var to = relative(end)
        if to &- from >= ChromeJSONEncoder.exactRange {
            // A duration that long keeps its nanoseconds no better than a time does: both ends whole microseconds.
            from = ChromeJSONEncoder.flooredToMicroseconds(from)
            to = ChromeJSONEncoder.flooredToMicroseconds(to)
            reducedPrecision = true
        }
        event(name: name, category: category, phase: "X", on: track, relativeTime: from)
        buffer.write(atMost: 7 + 26) { cursor in
            cursor.literal(",\"dur\":")
            Self.microseconds(to &- from, to: &cursor)
        }
        appendArguments(arguments)
        return buffer.count >= ExportOutput.bufferSize
    }

    mutating func begin(
        on track: ExportTrack, name: ExportName, category: ExportCategory, at t: Int64, _ arguments: ExportArguments
    ) -> Bool {
        event(name: name, category: category, phase: "B", on: track, at: t)
        appendArguments(arguments)
        return buffer.count >= ExportOutput.bufferSize
    }

    mutating func end(on track: ExportTrack, at t: Int64, _ arguments: ExportArguments) -> Bool {
        separate()
        let relativeTime = relative(t)
        let place = places.place(of: track)
        places.withPlaces { places in
            buffer.write(atMost: 10 + Self.placeSize) { cursor in
                cursor.literal("{\"ph\":\"E\",")
                Self.place(UnsafeRawBufferPointer(rebasing: places[place]), relativeTime: relativeTime, to: &cursor)
            }
        }
        appendArguments(arguments)
        return buffer.count >= ExportOutput.bufferSize
    }

    mutating func instant(
        on track: ExportTrack, name: ExportName, category: ExportCategory, at t: Int64, _ arguments: ExportArguments,
        notes: [ExportNote]? = nil
    ) -> Bool {
        event(name: name, category: category, phase: "i", on: track, at: t)
        buffer.write(atMost: 8) { $0.literal(",\"s\":\"t\"") }
        appendArguments(arguments, notes: notes)
        return buffer.count >= ExportOutput.bufferSize
    }

    mutating func finish(_ summary: ExportSummary) {
        if !opened { buffer.appendLiteral("{\"traceEvents\":[") }
        buffer.appendLiteral("\n],\"displayTimeUnit\":\"ms\",\"otherData\":{\"exporter\":\"lifetrace\",\"trace\":")
        buffer.appendJSONString(summary.file)
        buffer.appendLiteral(",\"origin_ns\":")
        buffer.writeDecimal(summary.origin)
        buffer.appendLiteral(",\"events\":")
        buffer.writeDecimal(Int64(summary.events))
        buffer.appendLiteral(",\"processes\":")
        buffer.writeDecimal(Int64(summary.processes))
        buffer.appendLiteral(",\"time_precision\":")
        buffer.appendJSONString(reducedPrecision ? ChromeJSONEncoder.reducedPrecisionNote : "ns")
        buffer.appendLiteral("}}\n")
    }

    // MARK: - Writing

    /// `t` in nanoseconds from the origin, floored to the microsecond past ``ChromeJSONEncoder/exactRange``.
    private mutating func relative(_ t: Int64) -> Int64 {
        let offset = t &- origin
        guard offset >= ChromeJSONEncoder.exactRange || offset <= -ChromeJSONEncoder.exactRange else { return offset }
        reducedPrecision = true
        return ChromeJSONEncoder.flooredToMicroseconds(offset)
    }

    /// Starts an event object: the comma before it, name, category, phase, pid, tid and ts.
    private mutating func event(
        name: ExportName, category: ExportCategory, phase: StaticString, on track: ExportTrack, at t: Int64
    ) {
        event(name: name, category: category, phase: phase, on: track, relativeTime: relative(t))
    }

    /// Starts an event object at `relativeTime` nanoseconds from the origin: a numbered name written before is
    /// copied with the rest in one run of bytes.
    private mutating func event(
        name: ExportName, category: ExportCategory, phase: StaticString, on track: ExportTrack,
        relativeTime: Int64
    ) {
        let known = name.key >= 0 && name.key < knownNames.count ? knownNames[name.key] : (start: 0, count: 0)
        let place = places.place(of: track)
        guard known.count > 0, opened else {
            separate()
            buffer.appendLiteral("{\"name\":")
            appendName(name)
            places.withPlaces { places in
                buffer.write(atMost: 8 + 8 + 8 + phase.utf8CodeUnitCount + 2 + Self.placeSize) { cursor in
                    Self.categoryAndPlace(
                        category, phase, UnsafeRawBufferPointer(rebasing: places[place]),
                        relativeTime: relativeTime, to: &cursor)
                }
            }
            return
        }
        knownNameBytes.withUnsafeBytes { names in
            places.withPlaces { places in
                buffer.write(atMost: 2 + 8 + known.count + 8 + 8 + 8 + phase.utf8CodeUnitCount + 2 + Self.placeSize) {
                    cursor in
                    cursor.literal(",\n{\"name\":")
                    cursor.bytes(UnsafeRawBufferPointer(rebasing: names[known.start..<known.start + known.count]))
                    Self.categoryAndPlace(
                        category, phase, UnsafeRawBufferPointer(rebasing: places[place]),
                        relativeTime: relativeTime, to: &cursor)
                }
            }
        }
    }

    /// Writes an event's members after its name: `,"cat":"state","ph":"X",` and ``place(_:relativeTime:to:)``'s.
    @inline(__always)
    private static func categoryAndPlace(
        _ category: ExportCategory, _ phase: StaticString, _ place: UnsafeRawBufferPointer,
        relativeTime: Int64, to cursor: inout OutputCursor
    ) {
        cursor.literal(",\"cat\":\"")
        cursor.literal(category.literal)
        cursor.literal("\",\"ph\":\"")
        cursor.literal(phase)
        cursor.literal("\",")
        Self.place(place, relativeTime: relativeTime, to: &cursor)
    }

    /// The most bytes ``place(_:relativeTime:to:)`` writes.
    private static let placeSize = ChromeTrackPlaces.slotSize + 6 + 26

    /// Writes where and when an event is: its track's `place` (``ChromeTrackPlaces``, `"pid":1,"tid":3`), then `,"ts":`
    /// and its time, `12.000345`.
    @inline(__always)
    private static func place(_ place: UnsafeRawBufferPointer, relativeTime: Int64, to cursor: inout OutputCursor) {
        cursor.bytes(place)
        cursor.literal(",\"ts\":")
        microseconds(relativeTime, to: &cursor)
    }

    /// Appends `name` as a JSON string: a numbered name's bytes are escaped once and copied after.
    private mutating func appendName(_ name: ExportName) {
        guard name.key >= 0 else {
            buffer.appendJSONString(name.text)
            return
        }
        knownNames.extend(toHold: name.key, with: (start: 0, count: 0))
        let known = knownNames[name.key]
        if known.count > 0 {
            knownNameBytes.withUnsafeBytes {
                buffer.appendBytes(UnsafeRawBufferPointer(rebasing: $0[known.start..<known.start + known.count]))
            }
            return
        }
        let start = buffer.count
        buffer.appendJSONString(name.text)
        buffer.withBytes { knownNameBytes.append(contentsOf: $0[start...]) }
        knownNames[name.key] = (knownNameBytes.count - (buffer.count - start), buffer.count - start)
    }

    /// Starts a metadata event (a process's or track's name, labels or order): what comes before its value, in one
    /// run of bytes as an event's start is; ``endMetadata()`` ends it once the value is written.
    private mutating func beginMetadata(_ name: StaticString, pid: Int32, tid: Int32, key: StaticString) {
        separate()
        // The literals' bytes, and at most 11 for each of pid and tid.
        buffer.write(atMost: 9 + name.utf8CodeUnitCount + 17 + 11 + 7 + 11 + 10 + key.utf8CodeUnitCount + 2) { cursor in
            cursor.literal("{\"name\":\"")
            cursor.literal(name)
            cursor.literal("\",\"ph\":\"M\",\"pid\":")
            cursor.decimal(Int64(pid))
            cursor.literal(",\"tid\":")
            cursor.decimal(Int64(tid))
            cursor.literal(",\"args\":{\"")
            cursor.literal(key)
            cursor.literal("\":")
        }
    }

    /// Ends the metadata event ``beginMetadata(_:pid:tid:key:)`` began.
    private mutating func endMetadata() {
        buffer.write(atMost: 2) { $0.literal("}}") }
    }

    /// Ends an event object with its `args` (when it has any), `notes` last, written in place: a member of
    /// megabytes (a scene's id) is copied once. A slice's end names its index `end_event_index`
    /// (``ExportArguments/endsSlice``).
    private mutating func appendArguments(_ arguments: ExportArguments, notes: [ExportNote]? = nil) {
        // A stretch's slice, most often, has nothing to say: its object ends here.
        guard !arguments.isEmpty || notes != nil else {
            buffer.write(atMost: 1) { $0.put(UInt8(ascii: "}")) }
            return
        }
        let indexKey: StaticString = arguments.endsSlice ? ",\"end_event_index\":" : ",\"event_index\":"
        let argsStart = buffer.count
        // Each member is written with a comma before it; the first one's becomes the object's brace once they are
        // all written.
        let membersStart = argsStart + 8
        buffer.write(atMost: 8 + indexKey.utf8CodeUnitCount + 20) { cursor in
            cursor.literal(",\"args\":")
            guard let index = arguments.index else { return }
            cursor.literal(indexKey)
            cursor.decimal(Int64(index))
        }
        if let event = arguments.event { buffer.appendFieldMembers(of: event, scenes: &scenes) }
        arguments.extras.forEach { extra in buffer.appendMember(extra.key, extra.value) }
        if let notes {
            for note in notes { buffer.appendMember(note.key, string: note.text) }
        }
        if buffer.count == membersStart {
            buffer.removeLast(from: argsStart)
            buffer.append(UInt8(ascii: "}"))
        } else {
            buffer.replaceByte(at: membersStart, with: UInt8(ascii: "{"))
            buffer.write(atMost: 2) { $0.literal("}}") }
        }
    }

    /// Writes nanoseconds as microseconds with exactly three digits of fraction (at most 26 bytes).
    @inline(__always)
    private static func microseconds(_ ns: Int64, to cursor: inout OutputCursor) {
        if ns < 0 { cursor.put(UInt8(ascii: "-")) }
        let magnitude = ns.magnitude
        cursor.decimal(Int64(magnitude / 1000))
        let fraction = magnitude % 1000
        cursor.put(UInt8(ascii: "."))
        cursor.put(UInt8(ascii: "0") + UInt8(fraction / 100))
        cursor.put(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
        cursor.put(UInt8(ascii: "0") + UInt8(fraction % 10))
    }

    private mutating func separate() {
        if opened {
            buffer.write(atMost: 2) { $0.literal(",\n") }
        } else {
            buffer.appendLiteral("{\"traceEvents\":[\n")
            opened = true
        }
    }
}
