import LifetraceCore
import LifetraceFormat

extension ByteBuffer {
    /// Appends the members of an exported event's fields, each preceded by a comma, named and ordered as JSON
    /// Lines writes them (``ByteBuffer/appendFieldMembers(of:)`` of the same ``LifecycleEvent``): Chrome JSON's
    /// `args` of a callback, task or instant.
    mutating func appendFieldMembers(of event: ExportEventFields) {
        if let scene = event.scene {
            appendLiteral(",\"scene\":")
            appendJSONString(scene)
        }
        if let dur = event.dur {
            write(atMost: 7 + 20) { cursor in
                cursor.literal(",\"dur\":")
                cursor.decimal(dur)
            }
        }
        // The rarer fields, past one test of the record.
        guard event.record.extra >= 0 || event.phase != nil else { return }
        if let task = event.task {
            appendLiteral(",\"task\":")
            appendDecimal(task)
        }
        if let name = event.name {
            appendLiteral(",\"name\":")
            appendJSONString(name)
        }
        if let phase = event.phase {
            appendLiteral(",\"phase\":\"")
            appendUTF8(phase.name)
            append(UInt8(ascii: "\""))
        }
        if let reason = event.reason {
            appendLiteral(",\"reason\":")
            appendJSONString(reason)
        }
        if let pid = event.pid {
            appendLiteral(",\"pid\":")
            appendDecimal(pid)
        }
        guard event.hasAttributes else { return }
        appendLiteral(",\"attrs\":{")
        var first = true
        event.forEachAttribute { key, value in
            if !first { append(UInt8(ascii: ",")) }
            first = false
            appendJSONString(key)
            append(UInt8(ascii: ":"))
            switch value {
            case let .string(text): appendJSONString(text)
            case let .int(number): appendDecimal(number)
            case let .double(number): appendJSONDouble(number)
            case let .bool(flag): appendLiteral(flag ? "true" : "false")
            }
        }
        append(UInt8(ascii: "}"))
    }
}
