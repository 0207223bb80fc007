import SwiftProtobuf

extension PerfettoTracePacket {
    /// The packet in the wire format, as swift-protobuf serializes it.
    var serialized: [UInt8] {
        do {
            return try serializedBytes()
        } catch {
            // Only a message with a missing required field fails, and these have none.
            fatalError("a Perfetto packet did not serialize: \(error)")
        }
    }

    /// The packet swift-protobuf decodes from `bytes`.
    init(decoding bytes: [UInt8]) throws {
        try self.init(serializedBytes: bytes)
    }
}
