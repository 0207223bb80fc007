package import LifetraceCore

/// The encodings of ``ByteAppending`` as methods of ``ByteWriter`` itself, compiled here for it: a generic
/// method's body is not inlined into other modules, so they would call it unspecialized, through the protocol, once
/// per byte. Each forwards to the one generic implementation from a generic function of this module, which the
/// compiler specializes for the buffer; ``appendVarint(_:)``, which the protobuf export calls several times per
/// event, is `@inlinable public` instead, inlined where it is called (see ``ByteWriter``).
extension ByteWriter {
    /// Appends an unsigned LEB128 varint (protobuf's varint too), with one check of the capacity for its up to
    /// ten bytes rather than one per byte: the protobuf export writes several per event.
    ///
    /// - Parameter value: The number written.
    @inlinable
    public mutating func appendVarint(_ value: UInt64) {
        reserve(10)
        var value = value
        while value >= 0x80 {
            base[count] = UInt8(truncatingIfNeeded: value) | 0x80
            written &+= 1
            value >>= 7
        }
        base[count] = UInt8(truncatingIfNeeded: value)
        written &+= 1
    }

    /// Appends a string as a varint length and its UTF-8 bytes (protobuf's length-delimited field too).
    package mutating func appendLengthPrefixed(_ string: String) {
        Self.appendLengthPrefixed(string, to: &self)
    }

    /// Appends the UTF-8 bytes of `text`, a literal.
    package mutating func appendLiteral(_ text: StaticString) {
        Self.appendLiteral(text, to: &self)
    }

    /// Appends the UTF-8 bytes of `string` as they are (no escaping).
    package mutating func appendUTF8(_ string: String) {
        Self.appendUTF8(string, to: &self)
    }

    /// Appends `string` as a JSON string literal.
    package mutating func appendJSONString(_ string: String) {
        Self.appendJSONString(string, to: &self)
    }

    /// Appends the UTF-8 text `utf8` as a JSON string literal.
    package mutating func appendJSONString(utf8: UnsafeRawBufferPointer) {
        Self.appendJSONString(utf8: utf8, to: &self)
    }

    /// Appends a decimal integer.
    package mutating func appendDecimal(_ value: Int64) {
        Self.appendDecimal(value, to: &self)
    }

    /// Appends the members of an event's fields after `t` and `ev`, as JSON Lines writes them.
    package mutating func appendFieldMembers(of event: LifecycleEvent) {
        Self.appendFieldMembers(of: event, to: &self)
    }

    private static func appendLengthPrefixed<Output: ByteAppending>(_ string: String, to output: inout Output) {
        output.appendLengthPrefixed(string)
    }

    private static func appendLiteral<Output: ByteAppending>(_ text: StaticString, to output: inout Output) {
        output.appendLiteral(text)
    }

    private static func appendUTF8<Output: ByteAppending>(_ string: String, to output: inout Output) {
        output.appendUTF8(string)
    }

    private static func appendJSONString<Output: ByteAppending>(_ string: String, to output: inout Output) {
        output.appendJSONString(string)
    }

    private static func appendJSONString<Output: ByteAppending>(utf8: UnsafeRawBufferPointer, to output: inout Output) {
        output.appendJSONString(utf8: utf8)
    }

    private static func appendDecimal<Output: ByteAppending>(_ value: Int64, to output: inout Output) {
        output.appendDecimal(value)
    }

    private static func appendFieldMembers<Output: ByteAppending>(of event: LifecycleEvent, to output: inout Output) {
        output.appendFieldMembers(of: event)
    }
}
