// One strict JSON scanner, whole: RFC 8259's grammar read byte by byte with positions for errors.

import LifetraceCore

/// A strict JSON parser over the bytes of one line (RFC 8259), with positions for errors.
///
/// Works on raw UTF-8 without Foundation. Object members keep their order; integers that fit `Int64` stay
/// integers, so nothing is lost between JSON Lines and the binary format.
struct JSONScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position = 0
    private var escapeStart = 0
    /// The offset of the last object key read, for errors about a member.
    private(set) var keyStart = 0
    private let maxDepth = 64

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { position >= bytes.count }

    func failure(_ message: String) -> DecodeFailure {
        DecodeFailure(offset: position, message: message)
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    @inline(__always)
    func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    mutating func expect(_ byte: UInt8, _ what: String) throws(DecodeFailure) {
        skipWhitespace()
        guard peek() == byte else { throw failure("expected \(what)") }
        position += 1
    }

    /// Parses the line's single value and checks nothing follows it.
    mutating func parseDocument() throws(DecodeFailure) -> JSONValue {
        let value = try parseValue(depth: 0)
        try expectEnd()
        return value
    }

    mutating func expectEnd() throws(DecodeFailure) {
        skipWhitespace()
        guard isAtEnd else { throw failure("unexpected characters after the JSON value") }
    }

    mutating func parseValue(depth: Int) throws(DecodeFailure) -> JSONValue {
        skipWhitespace()
        guard let byte = peek() else { throw failure("expected a value") }
        switch byte {
        case UInt8(ascii: "{"):
            guard depth < maxDepth else { throw failure("nested deeper than \(maxDepth) levels") }
            var members: [(key: String, value: JSONValue)] = []
            var keys = DuplicateKeys()
            try parseObject { (name, scanner) throws(DecodeFailure) in
                let key = name.string
                if keys.insert(key, count: members.count, keyAt: { members[$0].key }) {
                    throw scanner.failure("duplicate key \"\(key)\"")
                }
                members.append((key, try scanner.parseValue(depth: depth + 1)))
            }
            return .object(members)
        case UInt8(ascii: "["):
            guard depth < maxDepth else { throw failure("nested deeper than \(maxDepth) levels") }
            position += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if peek() == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            }
            while true {
                elements.append(try parseValue(depth: depth + 1))
                skipWhitespace()
                guard let next = peek() else { throw failure("unterminated array") }
                position += 1
                if next == UInt8(ascii: "]") { return .array(elements) }
                guard next == UInt8(ascii: ",") else {
                    position -= 1
                    throw failure("expected ',' or ']'")
                }
            }
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try parseLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try parseLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try parseLiteral("null")
            return .null
        default:
            return try parseNumber()
        }
    }

    /// Parses an object, calling `member` with each key; `member` must consume the value.
    mutating func parseObject(
        _ member: (JSONString, inout JSONScanner) throws(DecodeFailure) -> Void
    ) throws(DecodeFailure) {
        try expect(UInt8(ascii: "{"), "'{'")
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            return
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw failure("expected a key") }
            keyStart = position
            let key = try parseJSONString()
            try expect(UInt8(ascii: ":"), "':'")
            try member(key, &self)
            skipWhitespace()
            guard let next = peek() else { throw failure("unterminated object") }
            position += 1
            if next == UInt8(ascii: "}") { return }
            guard next == UInt8(ascii: ",") else {
                position -= 1
                throw failure("expected ',' or '}'")
            }
        }
    }

    private mutating func parseLiteral(_ literal: StaticString) throws(DecodeFailure) {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - position >= count else { throw failure("invalid literal") }
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        for i in 0..<count where bytes[position + i] != expected[i] { throw failure("invalid literal") }
        position += count
    }

    /// Parses a string value, the cursor on its opening quote.
    mutating func parseString() throws(DecodeFailure) -> String {
        try parseJSONString().string
    }

    /// Parses a string, the cursor on its opening quote: one without escapes is left in the line, not copied.
    mutating func parseJSONString() throws(DecodeFailure) -> JSONString {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { throw failure("expected a string") }
        position += 1
        let start = position
        // Fast path: no escapes; UTF-8 checked only where a byte is not ASCII.
        var ascii = true
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                guard ascii || String(validUTF8: slice) != nil else {
                    throw DecodeFailure(offset: start, message: "string is not valid UTF-8")
                }
                return JSONString(bytes: slice)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw failure("control character in string") }
            ascii = ascii && byte < 0x80
            position += 1
        }
        var utf8 = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while true {
            guard position < bytes.count else { throw failure("unterminated string") }
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let string = String(validUTF8: utf8) else {
                    throw DecodeFailure(offset: start, message: "string is not valid UTF-8")
                }
                return JSONString(decoded: string)
            case UInt8(ascii: "\\"):
                try parseEscape(into: &utf8)
            case ..<0x20:
                position -= 1
                throw failure("control character in string")
            default:
                utf8.append(byte)
            }
        }
    }

    private mutating func parseEscape(into utf8: inout [UInt8]) throws(DecodeFailure) {
        do throws(DecodeFailure) {
            try parseEscapeBody(into: &utf8)
        } catch {
            // Point at the backslash that starts the escape.
            throw DecodeFailure(offset: escapeStart, message: error.message)
        }
    }

    private mutating func parseEscapeBody(into utf8: inout [UInt8]) throws(DecodeFailure) {
        escapeStart = position - 1
        guard position < bytes.count else { throw failure("unterminated escape") }
        let escape = bytes[position]
        position += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard bytes.count - position >= 6, bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                else { throw failure("unpaired surrogate") }
                position += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw failure("unpaired surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw failure("unpaired surrogate")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw failure("invalid \\u escape") }
            utf8.append(contentsOf: UTF8.encode(unicode)!)
        default:
            position -= 1
            throw failure("invalid escape")
        }
    }

    private mutating func parseHex4() throws(DecodeFailure) -> UInt32 {
        guard bytes.count - position >= 4 else { throw failure("invalid \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// Parses a number: an `Int64` when it has no fraction or exponent, a `Double` when it has one. An
    /// integer outside the signed 64-bit range is an error, never a silently rounded `Double`.
    mutating func parseNumber() throws(DecodeFailure) -> JSONValue {
        skipWhitespace()
        let start = position
        var negative = false
        if peek() == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        guard let first = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            throw DecodeFailure(offset: start, message: "expected a value")
        }
        var magnitude: UInt64 = 0
        var overflow = false
        if first == UInt8(ascii: "0") {
            position += 1
            if let next = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) {
                throw failure("leading zero in number")
            }
        } else {
            while let digit = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) {
                let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
                overflow = overflow || o1 || o2
                magnitude = sum
                position += 1
            }
        }
        var isIntegral = true
        if peek() == UInt8(ascii: ".") {
            isIntegral = false
            position += 1
            guard let digit = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else {
                throw failure("expected a digit after '.'")
            }
            while let digit = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) { position += 1 }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isIntegral = false
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard let digit = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else {
                throw failure("expected a digit in the exponent")
            }
            while let digit = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) { position += 1 }
        }
        if isIntegral {
            if !overflow, negative, magnitude <= UInt64(Int64.max) + 1 {
                return .int(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude))
            }
            if !overflow, !negative, magnitude <= UInt64(Int64.max) { return .int(Int64(magnitude)) }
            throw DecodeFailure(
                offset: start, message: "integer out of the signed 64-bit range (write 1.8e19 for a number)")
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw DecodeFailure(offset: start, message: "number out of range")
        }
        return .double(value)
    }
}

/// Finds a repeated key among an object's members in time linear in their number: the few members of most
/// objects are searched, a set takes over past ``DuplicateKeys/searched`` of them.
struct DuplicateKeys {
    /// How many members a search covers before the set is built.
    static let searched = 16
    private var set: Set<String>?

    /// Notes `key`, the next key of an object whose `count` keys so far `keyAt` gives; `true` if it is one of
    /// them.
    mutating func insert(_ key: String, count: Int, keyAt: (Int) -> String) -> Bool {
        if set == nil {
            if count < Self.searched {
                for index in 0..<count where keyAt(index) == key { return true }
                return false
            }
            var keys = Set<String>(minimumCapacity: count * 2)
            for index in 0..<count { keys.insert(keyAt(index)) }
            set = keys
        }
        return !set!.insert(key).inserted
    }
}
