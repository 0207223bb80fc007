public import LifetraceCore

/// Writes events and headers in the JSON Lines form of `Schemas/trace-event.schema.json`.
///
/// The form is canonical: members in the order `t, ev, scene, dur, task, name, phase, reason, pid, attrs`,
/// no whitespace, absent fields omitted. `lifetrace dump` prints exactly this.
public enum JSONLinesEncoder {
    /// Appends one event as a line, newline included.
    public static func appendLine(_ event: LifecycleEvent, to line: inout [UInt8]) {
        line.append(contentsOf: "{\"t\":".utf8)
        line.appendDecimal(event.t)
        line.append(contentsOf: ",\"ev\":".utf8)
        if let label = event.label, event.kind == .custom {
            line.appendJSONString("custom." + label)
        } else {
            line.append(UInt8(ascii: "\""))
            line.append(contentsOf: event.kind.name.utf8)
            line.append(UInt8(ascii: "\""))
        }
        appendFieldMembers(of: event, to: &line)
        line.append(contentsOf: "}\n".utf8)
    }

    /// Appends the members of an event's fields after `t` and `ev` (`,"scene":"S1","dur":35000000` and so on, in
    /// the canonical order), each preceded by a comma: the part of a line other JSON documents embed.
    package static func appendFieldMembers(of event: LifecycleEvent, to line: inout [UInt8]) {
        if let scene = event.scene {
            line.append(contentsOf: ",\"scene\":".utf8)
            line.appendJSONString(scene)
        }
        if let dur = event.dur {
            line.append(contentsOf: ",\"dur\":".utf8)
            line.appendDecimal(dur)
        }
        if let task = event.task {
            line.append(contentsOf: ",\"task\":".utf8)
            line.appendDecimal(task)
        }
        if let name = event.name {
            line.append(contentsOf: ",\"name\":".utf8)
            line.appendJSONString(name)
        }
        if let phase = event.phase {
            line.append(contentsOf: ",\"phase\":\"".utf8)
            line.append(contentsOf: phase.name.utf8)
            line.append(UInt8(ascii: "\""))
        }
        if let reason = event.reason {
            line.append(contentsOf: ",\"reason\":".utf8)
            line.appendJSONString(reason)
        }
        if let pid = event.pid {
            line.append(contentsOf: ",\"pid\":".utf8)
            line.appendDecimal(pid)
        }
        if let attrs = event.attrs {
            line.append(contentsOf: ",\"attrs\":{".utf8)
            for (i, attribute) in attrs.enumerated() {
                if i > 0 { line.append(UInt8(ascii: ",")) }
                line.appendJSONString(attribute.key)
                line.append(UInt8(ascii: ":"))
                switch attribute.value {
                case let .string(s): line.appendJSONString(s)
                case let .int(i): line.appendDecimal(i)
                case let .double(d): line.appendJSONDouble(d)
                case let .bool(b): line.append(contentsOf: (b ? "true" : "false").utf8)
                }
            }
            line.append(UInt8(ascii: "}"))
        }
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
