import LifetraceCore
import LifetraceFormat

extension ByteWriter {
    /// Appends the members of an exported event's fields, each preceded by a comma, named and ordered as JSON
    /// Lines writes them (``ByteWriter/appendFieldMembers(of:)`` of the same ``LifecycleEvent``): Chrome JSON's
    /// `args` of a callback, task or instant. The scene's string is copied from `scenes` when it is the one written
    /// last.
    mutating func appendFieldMembers(of event: ExportEventFields, scenes: inout WrittenTextMemo) {
        event.forEachField { field in
            switch field {
            case let .scene(text):
                appendMemberKey(EventFields.Name.scene)
                guard !scenes.append(text, to: &self) else { break }
                let start = count
                appendJSONString(text)
                scenes.keep(text, written: self, from: start)
            case let .dur(number): appendMember(EventFields.Name.dur, number)
            case let .task(number): appendMember(EventFields.Name.task, number)
            case let .name(text): appendMember(EventFields.Name.name, string: text)
            case let .phase(phase): appendMember(EventFields.Name.phase, string: phase.name)
            case let .reason(text): appendMember(EventFields.Name.reason, string: text)
            case let .pid(number): appendMember(EventFields.Name.pid, number)
            }
        }
        guard event.hasAttributes else { return }
        write(atMost: 10) { cursor in
            cursor.literal(EventFields.Member.attrs)
            cursor.literal("{")
        }
        var first = true
        event.forEachAttribute { key, value in
            if !first { append(UInt8(ascii: ",")) }
            first = false
            appendJSONString(key)
            append(UInt8(ascii: ":"))
            switch value {
            case let .string(text): appendJSONString(text)
            case let .int(number): writeDecimal(number)
            case let .double(number): appendJSONDouble(number)
            case let .bool(flag): appendLiteral(flag ? "true" : "false")
            }
        }
        append(UInt8(ascii: "}"))
    }

    /// Appends a member of a JSON object after the one before it: a comma, `key` (a plain name, with nothing to
    /// escape) and a colon, through a cursor, inlined here, where `appendLiteral` is a call into the format module.
    mutating func appendMemberKey(_ key: StaticString) {
        write(atMost: key.utf8CodeUnitCount + 4) { cursor in
            cursor.literal(",\"")
            cursor.literal(key)
            cursor.literal("\":")
        }
    }

    /// Appends the member `key` (``appendMemberKey(_:)``) with the string `value`.
    mutating func appendMember(_ key: StaticString, string value: String) {
        appendMemberKey(key)
        appendJSONString(value)
    }

    /// Appends the member `key` (``appendMemberKey(_:)``) with the integer `value`, in one run of bytes.
    mutating func appendMember(_ key: StaticString, _ value: Int64) {
        write(atMost: key.utf8CodeUnitCount + 4 + 20) { cursor in
            cursor.literal(",\"")
            cursor.literal(key)
            cursor.literal("\":")
            cursor.decimal(value)
        }
    }

    /// Appends the member `key` (``appendMemberKey(_:)``) with `value`.
    mutating func appendMember(_ key: StaticString, _ value: ExportValue) {
        switch value {
        case let .string(string): appendMember(key, string: string)
        case let .int(number): appendMember(key, number)
        case let .bool(flag):
            appendMemberKey(key)
            appendLiteral(flag ? "true" : "false")
        }
    }
}
