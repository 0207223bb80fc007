package import LifetraceCore

/// Appends JSON text without Foundation: the per-event path of `dump`, `convert` and the Chrome JSON export.
extension ByteAppending {
    /// Appends `string` as a JSON string literal, escaping quotes, backslashes and control characters.
    @inlinable
    package mutating func appendJSONString(_ string: String) {
        var string = string
        string.withUTF8 { appendJSONString(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// Appends the UTF-8 text `utf8` as a JSON string literal, as ``appendJSONString(_:)`` does a string's.
    @inlinable
    package mutating func appendJSONString(utf8: UnsafeRawBufferPointer) {
        append(UInt8(ascii: "\""))
        if let bytes = utf8.baseAddress?.assumingMemoryBound(to: UInt8.self) {
            var runStart = 0
            // A plain loop over the bytes, quick even unoptimized: a scene's id may be megabytes. Eight bytes with
            // nothing to escape are passed over at once.
            var index = 0
            while index < utf8.count {
                if index &+ 8 <= utf8.count,
                    !Self.mayNeedEscaping(UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self))
                {
                    index &+= 8
                    continue
                }
                let byte = bytes[index]
                index += 1
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
                appendBytes(UnsafeRawBufferPointer(start: bytes + runStart, count: index - 1 - runStart))
                runStart = index
                append(UInt8(ascii: "\\"))
                switch byte {
                case 0x22: append(0x22)
                case 0x5C: append(0x5C)
                case 0x0A: append(UInt8(ascii: "n"))
                case 0x0D: append(UInt8(ascii: "r"))
                case 0x09: append(UInt8(ascii: "t"))
                case 0x08: append(UInt8(ascii: "b"))
                case 0x0C: append(UInt8(ascii: "f"))
                default:
                    let hex: StaticString = "0123456789abcdef"
                    appendLiteral("u00")
                    append(hex.utf8Start[Int(byte >> 4)])
                    append(hex.utf8Start[Int(byte & 0xF)])
                }
            }
            appendBytes(UnsafeRawBufferPointer(start: bytes + runStart, count: utf8.count - runStart))
        }
        append(UInt8(ascii: "\""))
    }

    /// Whether any of the eight bytes of `word` is one a JSON string escapes: a control character (below 0x20), a
    /// quotation mark or a backslash. The tests of "Bit Twiddling Hacks" (S. E. Anderson: "Determine if a word has
    /// a byte less than n", "has a zero byte"): exact as a yes or no (a borrow across bytes starts only at a byte
    /// that passes), though the bit set need not mark which byte it was.
    @inlinable @inline(__always)
    static func mayNeedEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        let control = (word &- ones &* 0x20) & ~word
        let quote = (quotes &- ones) & ~quotes
        let backslash = (backslashes &- ones) & ~backslashes
        return (control | quote | backslash) & highs != 0
    }

    /// Appends a decimal integer.
    @inlinable
    package mutating func appendDecimal(_ value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        if magnitude < 10 {
            append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude))
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes of stack for up to 20 digits
        Swift.withUnsafeMutableBytes(of: &digits) { raw in
            let end = raw.baseAddress! + 24
            var start = end
            repeat {
                start -= 1
                start.storeBytes(of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10), as: UInt8.self)
                magnitude /= 10
            } while magnitude > 0
            appendBytes(UnsafeRawBufferPointer(start: start, count: end - start))
        }
    }

    /// Appends a finite double in its shortest form that reads back to the same value.
    @inlinable
    package mutating func appendJSONDouble(_ value: Double) {
        appendUTF8(value.description)
    }
}

/// Appends JSON values to a byte array.
extension Array where Element == UInt8 {
    /// Appends any JSON value, object members in order, with no whitespace.
    package mutating func appendJSONValue(_ value: JSONValue) {
        switch value {
        case .null: append(contentsOf: "null".utf8)
        case let .bool(b): append(contentsOf: (b ? "true" : "false").utf8)
        case let .int(i): appendDecimal(i)
        case let .double(d): appendJSONDouble(d)
        case let .string(s): appendJSONString(s)
        case let .array(elements):
            append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { append(UInt8(ascii: ",")) }
                appendJSONValue(element)
            }
            append(UInt8(ascii: "]"))
        case let .object(members):
            append(UInt8(ascii: "{"))
            for (i, member) in members.enumerated() {
                if i > 0 { append(UInt8(ascii: ",")) }
                appendJSONString(member.key)
                append(UInt8(ascii: ":"))
                appendJSONValue(member.value)
            }
            append(UInt8(ascii: "}"))
        }
    }
}
