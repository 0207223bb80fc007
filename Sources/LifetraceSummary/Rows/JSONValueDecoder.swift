import LifetraceCore

/// Decodes a value whose `init(from:)` reads one keyed container of strings, integers, booleans and nulls — a
/// ``SummaryRow`` — from a ``JSONValue`` object the package's bounded JSON parser made. A member that is absent
/// reads as absent, `null` as nil; a member of another type is a `DecodingError` naming it.
struct JSONValueDecoder {
    /// The value `json` holds.
    static func decode<Value: Decodable>(_ type: Value.Type, from json: JSONValue) throws -> Value {
        guard case let .object(members) = json else {
            throw DecodingError.typeMismatch(type, .init(codingPath: [], debugDescription: "not an object"))
        }
        return try Value(from: ObjectDecoder(members: members))
    }

    private struct ObjectDecoder: Decoder {
        let members: [(key: String, value: JSONValue)]
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(Container(members: members, cursor: Cursor()))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            throw DecodingError.typeMismatch(
                [Any].self, .init(codingPath: [], debugDescription: "a summary row is an object"))
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            throw DecodingError.typeMismatch(
                Any.self, .init(codingPath: [], debugDescription: "a summary row is an object"))
        }
    }

    /// Where the last member was found: a row's columns are asked for in the order they were written, so the
    /// next one is nearly always the next member.
    private final class Cursor {
        var next = 0
    }

    private struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [(key: String, value: JSONValue)]
        let cursor: Cursor
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

        /// The member named `key` (the parser refuses an object with a key twice), searched from where the last
        /// one was found (asked again: `decodeIfPresent` asks whether it is there, then whether it is null, then
        /// for its value).
        private func value(_ key: Key) -> JSONValue? {
            let name = key.stringValue
            if cursor.next > 0, cursor.next <= members.count, members[cursor.next - 1].key == name {
                return members[cursor.next - 1].value
            }
            let start = min(cursor.next, members.count)
            guard
                let index = members[start...].firstIndex(where: { $0.key == name })
                    ?? members[..<start].firstIndex(where: { $0.key == name })
            else { return nil }
            cursor.next = index + 1
            return members[index].value
        }

        func contains(_ key: Key) -> Bool { value(key) != nil }

        func decodeNil(forKey key: Key) throws -> Bool {
            guard let value = value(key) else { throw Self.missing(key) }
            return value == .null
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decode(type, key) }

        // A column that may be absent or null, found once (the protocol's defaults would look it up three times).
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try decodeIfPresent(type, key) }
        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try decodeIfPresent(type, key) }
        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try decodeIfPresent(type, key) }

        private func decodeIfPresent<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
            guard let value = value(key), value != .null else { return nil }
            return try convert(value, to: type, key)
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type, key) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type, key) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type, key) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type, key) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type, key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type, key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type, key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type, key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type, key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type, key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type, key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type, key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type, key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type, key) }

        private func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
            guard let value = value(key) else { throw Self.missing(key) }
            return try convert(value, to: type, key)
        }

        /// The column's value if it has the type asked for: strings, booleans and integers.
        private func convert<T: Decodable>(_ value: JSONValue, to type: T.Type, _ key: Key) throws -> T {
            let decoded: Any? =
                switch type {
                case is String.Type: value.stringValue
                case is Bool.Type: value.boolValue
                case is Int64.Type: value.intValue
                case is Int.Type: value.intValue.flatMap { Int(exactly: $0) }
                default: nil
                }
            guard let decoded = decoded as? T else {
                throw DecodingError.typeMismatch(
                    type,
                    .init(
                        codingPath: [key],
                        debugDescription: "\(key.stringValue) is \(value.kindName), not \(Self.describe(type))"))
            }
            return decoded
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        { throw Self.flat(key) }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw Self.flat(key) }
        func superDecoder() throws -> any Decoder { throw Self.flat(nil) }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw Self.flat(key) }

        private static func missing(_ key: Key) -> DecodingError {
            .keyNotFound(key, .init(codingPath: [], debugDescription: "no \"\(key.stringValue)\""))
        }

        private static func flat(_ key: Key?) -> DecodingError {
            .typeMismatch(
                Any.self, .init(codingPath: key.map { [$0] } ?? [], debugDescription: "a summary row is a flat object"))
        }

        private static func describe(_ type: Any.Type) -> String {
            switch type {
            case is String.Type: "a string"
            case is Bool.Type: "a boolean"
            default: "an integer"
            }
        }
    }
}

extension JSONValue {
    /// What kind of JSON value this is, as an error message names it: "null", "a string", "an object" …
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
