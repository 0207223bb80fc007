/// Writes a data frame's content as a zstd frame of raw blocks (RFC 8878 §3.1.1), with no compression.
///
/// The frame header is a single segment that declares the content size in 4 bytes and a content checksum;
/// the content follows in raw blocks of at most 128 KiB, the last one flagged; then the low 4 bytes of the
/// content's XXH64. `zstd -t` and every zstd decoder accept such frames.
final class StoredFrameCompressor: FrameCompressor {
    private var frame: [UInt8] = []

    /// The frame header descriptor: content size in 4 bytes (`FCS_Field_Size` flag 2), single segment, content
    /// checksum, no dictionary.
    static let descriptor: UInt8 = 0b10_1_0_0_1_00

    func compressFrame<R, E: Error>(_ content: [UInt8], _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R
    {
        precondition(UInt64(content.count) <= UInt64(UInt32.max), "a data frame's content is limited to 16 MiB")
        frame.removeAll(keepingCapacity: true)
        frame.reserveCapacity(content.count + content.count / ZstdFrameLayout.maxBlockSize * 3 + 16)
        frame.appendUInt32LE(FormatConstants.zstdFrameMagic)
        frame.append(Self.descriptor)
        frame.appendUInt32LE(UInt32(content.count))
        var start = 0
        repeat {
            let size = min(ZstdFrameLayout.maxBlockSize, content.count - start)
            let last = start + size == content.count
            let header = UInt32(size) << 3 | (last ? 1 : 0)  // block type 0: raw
            frame.append(UInt8(truncatingIfNeeded: header))
            frame.append(UInt8(truncatingIfNeeded: header >> 8))
            frame.append(UInt8(truncatingIfNeeded: header >> 16))
            frame.append(contentsOf: content[start..<start + size])
            start += size
        } while start < content.count
        let checksum = content.withUnsafeBytes { XXH64.hash($0) }
        frame.appendUInt32LE(UInt32(truncatingIfNeeded: checksum))
        return try frame.withBytes(body)
    }
}
