public import LifetraceCore

extension JSONValue {
    /// The value as compact JSON text, object members in order.
    public var jsonText: String {
        var bytes: [UInt8] = []
        bytes.appendJSONValue(self)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Parses one JSON document (RFC 8259), keeping object members in order and integers exact.
    ///
    /// - Throws: a ``TraceError`` naming `file`, with the byte offset of the problem.
    public init(parsing text: String, file: String) throws(TraceError) {
        var text = text
        let result: Result<JSONValue, DecodeFailure> = text.withUTF8 { bytes in
            var scanner = JSONScanner(bytes)
            do throws(DecodeFailure) { return .success(try scanner.parseDocument()) } catch { return .failure(error) }
        }
        switch result {
        case let .success(value): self = value
        case let .failure(failure):
            throw TraceError(.malformed, file: file, at: .byte(failure.offset, frame: nil), failure.message)
        }
    }
}
