/// The layout of one ordinary zstd frame (RFC 8878 §3.1.1), read without decompressing it: the frame header,
/// then each block's header, checked against the limits the RFC sets.
///
/// Both frame codecs rely on it: it finds where a frame ends in a file (so that truncation and damage are
/// told apart without libzstd), and it checks what libzstd's one-shot decompression does not, such as a raw
/// block larger than the 128 KiB a block may hold.
struct ZstdFrameLayout {
    /// The most a block may hold (`Block_Maximum_Size` is at most 128 KiB).
    static let maxBlockSize = 128 << 10

    /// One block of the frame.
    struct Block {
        /// The block's type (RFC 8878 §3.1.1.2.2).
        enum Kind: UInt8 {
            /// Stored bytes: `size` bytes follow the header.
            case raw = 0
            /// One byte, repeated `size` times.
            case rle = 1
            /// zstd-compressed: `size` bytes follow the header.
            case compressed = 2
        }

        var kind: Kind
        /// The bytes the block decodes to (raw and RLE) or occupies (compressed).
        var size: Int
        /// The offset of the block's data (after its 3-byte header), from the start of the frame.
        var dataOffset: Int
    }

    /// The size of the frame header, magic included.
    var headerSize: Int
    /// The content size the header declares, if it declares one.
    var declaredContentSize: UInt64?
    /// Whether the frame ends with a 4-byte content checksum.
    var hasChecksum: Bool
    /// The blocks, in order.
    var blocks: [Block]
    /// The frame's whole size: header, blocks and checksum.
    var frameSize: Int

    /// The layout of the frame at the start of `bytes`; `nil` when `bytes` ends before the frame does.
    ///
    /// - Throws: ``DecodeFailure`` when the bytes are not a valid zstd frame: a wrong magic, a reserved bit
    ///   or block type, a dictionary (lifetrace frames use none), or a block larger than the frame allows.
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(DecodeFailure) -> ZstdFrameLayout? {
        guard bytes.count >= 5 else { return nil }
        guard loadUInt32LE(bytes, at: 0) == FormatConstants.zstdFrameMagic else {
            throw DecodeFailure(offset: 0, message: "zstd: unknown frame descriptor")
        }
        let descriptor = bytes[4]
        let contentSizeFlag = Int(descriptor >> 6)
        let singleSegment = descriptor & 0x20 != 0
        let hasChecksum = descriptor & 0x04 != 0
        let dictionaryFlag = Int(descriptor & 0x03)
        guard descriptor & 0x08 == 0 else {
            throw DecodeFailure(offset: 4, message: "zstd: frame header sets a reserved bit")
        }
        guard dictionaryFlag == 0 else {
            throw DecodeFailure(offset: 4, message: "zstd: frame requires a dictionary")
        }
        let contentSizeBytes = [singleSegment ? 1 : 0, 2, 4, 8][contentSizeFlag]
        var position = 5
        var windowSize: UInt64 = 0
        if !singleSegment {
            guard bytes.count > position else { return nil }
            let window = bytes[position]
            let windowLog = 10 + UInt64(window >> 3)
            let base: UInt64 = 1 << windowLog
            windowSize = base + (base / 8) * UInt64(window & 7)
            position += 1
        }
        guard bytes.count >= position + contentSizeBytes else { return nil }
        var declared: UInt64?
        if contentSizeBytes > 0 {
            var value: UInt64 = 0
            for i in 0..<contentSizeBytes { value |= UInt64(bytes[position + i]) << (8 * UInt64(i)) }
            declared = contentSizeBytes == 2 ? value + 256 : value
            position += contentSizeBytes
        }
        if singleSegment { windowSize = declared ?? 0 }
        let blockLimit = Int(truncatingIfNeeded: min(windowSize, UInt64(maxBlockSize)))  // at most maxBlockSize
        let headerSize = position
        var blocks: [Block] = []
        while true {
            guard bytes.count >= position + 3 else { return nil }
            let header = Int(bytes[position]) | Int(bytes[position + 1]) << 8 | Int(bytes[position + 2]) << 16
            let last = header & 1 != 0
            guard let kind = Block.Kind(rawValue: UInt8((header >> 1) & 3)) else {
                throw DecodeFailure(offset: position, message: "zstd: block of the reserved type 3")
            }
            let size = header >> 3
            if size > blockLimit {
                throw DecodeFailure(
                    offset: position,
                    message: "zstd: \(kind) block of \(size) bytes is larger than "
                        + "the \(blockLimit) bytes a block of this frame may hold")
            }
            blocks.append(Block(kind: kind, size: size, dataOffset: position + 3))
            position += 3 + (kind == .rle ? 1 : size)
            if last { break }
        }
        if hasChecksum { position += 4 }
        guard bytes.count >= position else { return nil }
        return ZstdFrameLayout(
            headerSize: headerSize, declaredContentSize: declared, hasChecksum: hasChecksum,
            blocks: blocks, frameSize: position)
    }

    /// The content size the blocks decode to, when none is compressed.
    var storedContentSize: Int? {
        var total = 0
        for block in blocks {
            if block.kind == .compressed { return nil }
            total += block.size
        }
        return total
    }
}
