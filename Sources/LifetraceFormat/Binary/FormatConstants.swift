/// The numbers `Schemas/lifetrace-format.md` fixes: magics, versions and limits.
package enum FormatConstants {
    /// The major version this library writes and the newest it reads.
    package static let majorVersion: UInt8 = 1
    /// The minor version this library writes; a reader skips record kinds of newer minor versions.
    package static let minorVersion: UInt8 = 3

    /// The largest decompressed data frame a reader accepts (16 MiB).
    package static let maxFrameContentSize = 16 << 20
    /// The most events one data frame may hold (2^18): what a frame may expand to in memory is bounded
    /// (8 MiB of decoded records), however densely it was packed.
    package static let maxEventsPerFrame = 1 << 18
    /// The largest skippable frame payload a reader accepts (1 MiB, and 64 MiB for the index).
    package static let maxSkippablePayloadSize = 1 << 20
    /// The largest index payload a reader accepts.
    package static let maxIndexPayloadSize = 64 << 20
    /// The largest JSON Lines line a reader accepts (1 MiB).
    package static let maxLineLength = 1 << 20
    /// The largest buffer a reader keeps from one frame to the next (4 MiB): frames of common sizes reuse their
    /// buffers, and what a rare frame of up to 16 MiB needed is let go once it is read.
    package static let keptBufferSize = 4 << 20

    /// The skippable-frame magic of the header frame (`0x184D2A50`).
    static let headerFrameMagic: UInt32 = 0x184D_2A50
    /// The skippable-frame magic of the index frame (`0x184D2A51`).
    static let indexFrameMagic: UInt32 = 0x184D_2A51
    /// The magic of an ordinary zstd frame (`0xFD2FB528`).
    static let zstdFrameMagic: UInt32 = 0xFD2F_B528
    /// The four bytes that open a header frame's payload.
    static let headerPayloadMagic: [UInt8] = Array("LTRC".utf8)
    /// The four bytes that open an index frame's payload.
    static let indexPayloadMagic: [UInt8] = Array("LTIX".utf8)
    /// The first byte of a data frame's content: an event block.
    static let eventBlockType: UInt8 = 0x01

    /// Whether a 32-bit little-endian magic is a zstd skippable frame's (`0x184D2A50`...`0x184D2A5F`).
    static func isSkippableMagic(_ magic: UInt32) -> Bool {
        magic & 0xFFFF_FFF0 == 0x184D_2A50
    }
}

/// The type tags of attribute values in a binary record.
enum AttributeTypeTag: UInt8 {
    case string = 0
    case int = 1
    case double = 2
    case boolFalse = 3
    case boolTrue = 4
}
