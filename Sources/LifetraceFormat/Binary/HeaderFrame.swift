import LifetraceCore

/// The header frame: a zstd skippable frame (`0x184D2A50`) whose payload is `LTRC`, the major and minor
/// version, two flag bytes and the header's JSON object (empty when the trace has no header metadata).
enum HeaderFrame {
    static func encode(_ header: TraceHeader?) -> [UInt8] {
        var payload = FormatConstants.headerPayloadMagic
        payload.append(FormatConstants.majorVersion)
        payload.append(FormatConstants.minorVersion)
        payload.appendUInt16LE(0)
        if let header { payload.appendJSONValue(header.jsonValue) }
        return SkippableFrame.encode(magic: FormatConstants.headerFrameMagic, payload: payload)
    }

    /// The versions and header a header frame's payload holds.
    struct Contents {
        var major: UInt8
        var minor: UInt8
        var header: TraceHeader?
    }

    /// Reads a header payload; a newer major version is reported by the caller, which knows the file.
    static func decode(_ payload: UnsafeRawBufferPointer) throws(DecodeFailure) -> Contents {
        var cursor = ByteCursor(payload)
        let magic = try cursor.readBytes(4)
        guard magic.elementsEqual(FormatConstants.headerPayloadMagic) else {
            throw DecodeFailure(offset: 0, message: "header frame does not start with LTRC")
        }
        let major = try cursor.readByte()
        let minor = try cursor.readByte()
        _ = try cursor.readUInt16LE()
        guard major <= FormatConstants.majorVersion else { return Contents(major: major, minor: minor, header: nil) }
        guard major >= 1 else { throw DecodeFailure(offset: 4, message: "format major version 0 does not exist") }
        guard !cursor.isAtEnd else { return Contents(major: major, minor: minor, header: nil) }
        let jsonStart = cursor.position
        let json = try cursor.readBytes(cursor.remaining)
        var scanner = JSONScanner(json)
        let value: JSONValue
        do throws(DecodeFailure) {
            value = try scanner.parseDocument()
        } catch {
            throw DecodeFailure(offset: jsonStart + error.offset, message: "header JSON: \(error.message)")
        }
        let header = try TraceHeader(json: value)
        // What the JSON Lines form of the trace would say must agree with the frame, or converting it would
        // give a trace no reader accepts.
        guard header.majorVersion == Int64(major) else {
            throw DecodeFailure(
                offset: jsonStart,
                message: "header JSON says format version \(header.majorVersion), the header frame \(major)")
        }
        return Contents(major: major, minor: minor, header: header)
    }
}

/// A zstd skippable frame: a magic in `0x184D2A50`...`0x184D2A5F`, a 32-bit little-endian size, the payload.
enum SkippableFrame {
    static func encode(magic: UInt32, payload: [UInt8]) -> [UInt8] {
        var frame: [UInt8] = []
        frame.reserveCapacity(payload.count + 8)
        frame.appendUInt32LE(magic)
        frame.appendUInt32LE(UInt32(payload.count))
        frame.append(contentsOf: payload)
        return frame
    }
}
