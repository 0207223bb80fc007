import LifetraceCore

/// Encodes a value whose `encode(to:)` writes one keyed container of strings, integers, booleans and nulls — a
/// ``SummaryRow`` — as a ``JSONValue`` object whose members come in the order they were written, so that the
/// package's JSON writer gives each row the same bytes, key order and number formatting included, whatever
/// Foundation's `JSONEncoder` would do.
struct JSONValueEncoder {
    /// `value` as a JSON object.
    ///
    /// - Throws: `EncodingError.invalidValue` for anything but a flat object of strings, integers, booleans and
    ///   nulls.
    static func encode(_ value: some Encodable) throws -> JSONValue {
        let members = Members()
        try value.encode(to: ObjectEncoder(members: members))
        return .object(members.list)
    }

    /// The members written so far.
    private final class Members {
        var list: [(key: String, value: JSONValue)] = []
    }

    private struct ObjectEncoder: Encoder {
        let members: Members
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(Container(members: members))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer { Unsupported<SummaryRow.CodingKeys>(codingPath: []) }
        func singleValueContainer() -> any SingleValueEncodingContainer {
            Unsupported<SummaryRow.CodingKeys>(codingPath: [])
        }
    }

    private struct Container<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let members: Members
        var codingPath: [any CodingKey] { [] }

        private func add(_ value: JSONValue, _ key: Key) { members.list.append((key.stringValue, value)) }
        private func integer(_ value: some BinaryInteger, _ key: Key) throws {
            guard let exact = Int64(exactly: value) else { throw Self.invalid(value, key) }
            add(.int(exact), key)
        }
        private static func invalid(_ value: Any, _ key: Key) -> EncodingError {
            EncodingError.invalidValue(value, .init(codingPath: [key], debugDescription: "not a summary column value"))
        }

        mutating func encodeNil(forKey key: Key) throws { add(.null, key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { add(.bool(value), key) }
        mutating func encode(_ value: String, forKey key: Key) throws { add(.string(value), key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { throw Self.invalid(value, key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { throw Self.invalid(value, key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { try integer(value, key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { try integer(value, key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { try integer(value, key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { try integer(value, key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { try integer(value, key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { try integer(value, key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { try integer(value, key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { try integer(value, key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { try integer(value, key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { try integer(value, key) }
        /// A column written through a generic helper: the same values as the typed calls.
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            switch value {
            case let value as String: add(.string(value), key)
            case let value as Bool: add(.bool(value), key)
            case let value as Int64: add(.int(value), key)
            case let value as Int: try integer(value, key)
            default: throw Self.invalid(value, key)
            }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            KeyedEncodingContainer(Unsupported(codingPath: [key]))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            Unsupported<Key>(codingPath: [key])
        }
        mutating func superEncoder() -> any Encoder { UnsupportedEncoder() }
        mutating func superEncoder(forKey key: Key) -> any Encoder { UnsupportedEncoder() }
    }

    /// What a flat row never asks for: every write throws.
    private struct Unsupported<Key: CodingKey>: KeyedEncodingContainerProtocol, UnkeyedEncodingContainer,
        SingleValueEncodingContainer
    {
        var codingPath: [any CodingKey]
        var count: Int { 0 }

        private func fail() -> EncodingError {
            EncodingError.invalidValue(
                (), .init(codingPath: codingPath, debugDescription: "a summary row is a flat object"))
        }

        mutating func encodeNil(forKey key: Key) throws { throw fail() }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw fail() }
        mutating func encodeNil() throws { throw fail() }
        mutating func encode<T: Encodable>(_ value: T) throws { throw fail() }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        { KeyedEncodingContainer(Unsupported<NestedKey>(codingPath: codingPath)) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        { KeyedEncodingContainer(Unsupported<NestedKey>(codingPath: codingPath)) }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { self }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
        mutating func superEncoder() -> any Encoder { UnsupportedEncoder() }
        mutating func superEncoder(forKey key: Key) -> any Encoder { UnsupportedEncoder() }
    }

    private struct UnsupportedEncoder: Encoder {
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }
        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(Unsupported(codingPath: []))
        }
        func unkeyedContainer() -> any UnkeyedEncodingContainer { Unsupported<SummaryRow.CodingKeys>(codingPath: []) }
        func singleValueContainer() -> any SingleValueEncodingContainer {
            Unsupported<SummaryRow.CodingKeys>(codingPath: [])
        }
    }
}
