public import LifetraceCore

/// Writes events and headers in the JSON Lines form of `Schemas/trace-event.schema.json`.
///
/// The form is canonical: members in the order `t, ev, scene, dur, task, name, phase, reason, pid, attrs`,
/// no whitespace, absent fields omitted. `lifetrace dump` prints exactly this.
public enum JSONLinesEncoder {
    /// Appends one event as a line, newline included.
    public static func appendLine(_ event: LifecycleEvent, to line: inout [UInt8]) {
        line.appendLiteral("{\"t\":")
        line.appendDecimal(event.t)
        line.appendLiteral(",\"ev\":")
        if let label = event.label, event.kind == .custom {
            line.appendJSONString("custom." + label)
        } else {
            line.append(UInt8(ascii: "\""))
            line.appendUTF8(event.kind.name)
            line.append(UInt8(ascii: "\""))
        }
        line.appendFieldMembers(of: event)
        line.appendLiteral("}\n")
    }

    /// One event as a JSON Lines line, without the newline.
    public static func line(_ event: LifecycleEvent) -> String {
        var bytes: [UInt8] = []
        appendLine(event, to: &bytes)
        bytes.removeLast()
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the header as a line, newline included.
    public static func appendHeaderLine(_ header: TraceHeader, to line: inout [UInt8]) {
        line.appendJSONValue(header.jsonValue)
        line.append(UInt8(ascii: "\n"))
    }
}

extension ByteAppending {
    /// Appends the members of an event's fields after `t` and `ev` (`,"scene":"S1","dur":35000000` and so on, in
    /// the canonical order), each preceded by a comma: the part of a line other JSON documents embed.
    @inlinable
    package mutating func appendFieldMembers(of event: LifecycleEvent) {
        if let scene = event.scene {
            appendLiteral(EventFields.Member.scene)
            appendJSONString(scene)
        }
        if let dur = event.dur {
            appendLiteral(EventFields.Member.dur)
            appendDecimal(dur)
        }
        if let task = event.task {
            appendLiteral(EventFields.Member.task)
            appendDecimal(task)
        }
        if let name = event.name {
            appendLiteral(EventFields.Member.name)
            appendJSONString(name)
        }
        if let phase = event.phase {
            appendLiteral(EventFields.Member.phase)
            append(UInt8(ascii: "\""))
            appendUTF8(phase.name)
            append(UInt8(ascii: "\""))
        }
        if let reason = event.reason {
            appendLiteral(EventFields.Member.reason)
            appendJSONString(reason)
        }
        if let pid = event.pid {
            appendLiteral(EventFields.Member.pid)
            appendDecimal(pid)
        }
        if let attrs = event.attrs {
            appendLiteral(EventFields.Member.attrs)
            append(UInt8(ascii: "{"))
            for (i, attribute) in attrs.enumerated() {
                if i > 0 { append(UInt8(ascii: ",")) }
                appendJSONString(attribute.key)
                append(UInt8(ascii: ":"))
                switch attribute.value {
                case let .string(s): appendJSONString(s)
                case let .int(i): appendDecimal(i)
                case let .double(d): appendJSONDouble(d)
                case let .bool(b): appendLiteral(b ? "true" : "false")
                }
            }
            append(UInt8(ascii: "}"))
        }
    }
}
