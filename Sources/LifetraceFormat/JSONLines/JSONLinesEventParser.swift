import LifetraceCore

/// Parses one event line of JSON Lines into a ``LifecycleEvent``, strictly.
///
/// An unknown `ev`, an unknown member, a member of the wrong type or a missing field the kind needs is an
/// error; time order is checked by the reader, which knows the previous line.
enum JSONLinesEventParser {
    static func parse(_ line: UnsafeBufferPointer<UInt8>) throws(DecodeFailure) -> LifecycleEvent {
        var scanner = JSONScanner(line)
        var event = LifecycleEvent(t: 0, kind: .custom)
        var sawT = false
        var sawEv = false
        var seen: EventFields = []
        try scanner.parseObject { (key, scanner) throws(DecodeFailure) in
            let keyOffset = scanner.keyStart
            func once(_ field: EventFields) throws(DecodeFailure) {
                guard !seen.contains(field) else {
                    throw DecodeFailure(offset: keyOffset, message: "duplicate key \"\(key.string)\"")
                }
                seen.insert(field)
            }
            // The members compared as bytes, the commonest first: no string is made for a key.
            if key.equals("t") {
                guard !sawT else { throw DecodeFailure(offset: keyOffset, message: "duplicate key \"t\"") }
                sawT = true
                event.t = try integer(&scanner, "t", minimum: 0)
            } else if key.equals("ev") {
                guard !sawEv else { throw DecodeFailure(offset: keyOffset, message: "duplicate key \"ev\"") }
                sawEv = true
                let start = scanner.position
                let name = try rawString(&scanner, "ev")
                guard let (kind, label) = name.withUTF8(LifecycleEvent.parseName(utf8:)) else {
                    throw DecodeFailure(offset: start, message: "unknown event \"\(name.string)\"")
                }
                guard label?.isEmpty != true else {
                    throw DecodeFailure(offset: start, message: "a custom event needs a name after \"custom.\"")
                }
                event.kind = kind
                event.label = label
            } else if key.equals(EventFields.Name.scene) {
                try once(.scene)
                event.scene = try string(&scanner, EventFields.Name.scene)
            } else if key.equals(EventFields.Name.dur) {
                try once(.dur)
                event.dur = try integer(&scanner, EventFields.Name.dur, minimum: 0)
            } else if key.equals(EventFields.Name.task) {
                try once(.task)
                event.task = try integer(&scanner, EventFields.Name.task, minimum: .min)
            } else if key.equals(EventFields.Name.name) {
                try once(.name)
                event.name = try string(&scanner, EventFields.Name.name)
            } else if key.equals(EventFields.Name.phase) {
                try once(.phase)
                let start = scanner.position
                guard let phase = ScenePhase(name: try string(&scanner, EventFields.Name.phase)) else {
                    throw DecodeFailure(
                        offset: start, message: "\"\(EventFields.Name.phase)\" must be active, inactive or background")
                }
                event.phase = phase
            } else if key.equals(EventFields.Name.reason) {
                try once(.reason)
                event.reason = try string(&scanner, EventFields.Name.reason)
            } else if key.equals(EventFields.Name.pid) {
                try once(.pid)
                event.pid = try integer(&scanner, EventFields.Name.pid, minimum: .min)
            } else if key.equals(EventFields.Name.attrs) {
                try once(.attrs)
                event.attrs = try attributes(&scanner)
            } else {
                // A summary row (its members in any order) read as a trace is said to be one.
                guard !holdsSummaryVersion(line) else {
                    throw DecodeFailure(
                        offset: keyOffset, message: "a summary row (summarize's output), not a trace's event")
                }
                throw DecodeFailure(offset: keyOffset, message: "unknown field \"\(key.string)\"")
            }
        }
        try scanner.expectEnd()
        guard sawT else { throw DecodeFailure(offset: 0, message: "missing \"t\"") }
        guard sawEv else { throw DecodeFailure(offset: 0, message: "missing \"ev\"") }
        if let problem = event.problem { throw DecodeFailure(offset: 0, message: problem) }
        return event
    }

    private static func string(_ scanner: inout JSONScanner, _ key: StaticString) throws(DecodeFailure) -> String {
        try rawString(&scanner, key).string
    }

    /// The string value of the member `key`, left in the line.
    private static func rawString(_ scanner: inout JSONScanner, _ key: StaticString) throws(DecodeFailure) -> JSONString
    {
        scanner.skipWhitespace()
        guard scanner.peek() == UInt8(ascii: "\"") else { throw scanner.failure("\"\(key)\" must be a string") }
        return try scanner.parseJSONString()
    }

    private static func integer(_ scanner: inout JSONScanner, _ key: StaticString, minimum: Int64) throws(DecodeFailure)
        -> Int64
    {
        scanner.skipWhitespace()
        let start = scanner.position
        guard let first = scanner.peek(), first == UInt8(ascii: "-") || (0x30...0x39).contains(first) else {
            throw scanner.failure("\"\(key)\" must be an integer")
        }
        guard case let .int(value) = try scanner.parseNumber() else {
            throw DecodeFailure(offset: start, message: "\"\(key)\" must be an integer in the 64-bit range")
        }
        guard value >= minimum else { throw DecodeFailure(offset: start, message: "\"\(key)\" must not be negative") }
        return value
    }

    private static func attributes(_ scanner: inout JSONScanner) throws(DecodeFailure) -> [Attribute] {
        scanner.skipWhitespace()
        guard scanner.peek() == UInt8(ascii: "{") else {
            throw scanner.failure("\"\(EventFields.Name.attrs)\" must be an object")
        }
        var attributes: [Attribute] = []
        var keys = DuplicateKeys()
        try scanner.parseObject { (name, scanner) throws(DecodeFailure) in
            let key = name.string
            let start = scanner.position
            if keys.insert(key, count: attributes.count, keyAt: { attributes[$0].key }) {
                throw DecodeFailure(offset: start, message: "duplicate attribute \"\(key)\"")
            }
            switch try scanner.parseValue(depth: 1) {
            case let .string(s): attributes.append(Attribute(key, .string(s)))
            case let .int(i): attributes.append(Attribute(key, .int(i)))
            case let .double(d): attributes.append(Attribute(key, .double(d)))
            case let .bool(b): attributes.append(Attribute(key, .bool(b)))
            default:
                throw DecodeFailure(offset: start, message: "attribute \"\(key)\" must be a string, number or bool")
            }
        }
        return attributes
    }

    /// Whether `line` holds the key `"summary_version"` (a row of `summarize`), looked for only once a line is
    /// known to be no event.
    private static func holdsSummaryVersion(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.firstRange(of: #""summary_version":"#.utf8) != nil
    }
}
