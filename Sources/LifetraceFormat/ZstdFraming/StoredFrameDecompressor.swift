/// Reads zstd frames made of raw and RLE blocks in Swift, checking the declared size and the checksum.
///
/// A frame with a compressed block is refused with a message that says what can read it: this decompressor
/// is what a build without libzstd has.
final class StoredFrameDecompressor: FrameDecompressor {
    private var output: [UInt8] = []

    func decompress<R>(
        _ frame: UnsafeRawBufferPointer,
        limit: Int,
        _ body: (UnsafeRawBufferPointer) throws(DecodeFailure) -> R
    ) throws(DecodeFailure) -> R {
        guard let layout = try ZstdFrameLayout.parse(frame), layout.frameSize == frame.count else {
            throw DecodeFailure(offset: 0, message: "zstd: the frame's blocks do not add up to its size")
        }
        guard let declared = layout.declaredContentSize else {
            throw DecodeFailure(offset: 0, message: "data frame does not declare its content size")
        }
        guard declared <= UInt64(limit) else {
            throw DecodeFailure(
                offset: 0, message: "data frame declares \(declared) bytes, more than the \(limit) allowed")
        }
        guard let size = layout.storedContentSize else {
            throw DecodeFailure(
                offset: 0,
                message: "zstd: compressed block: this build reads stored frames only; "
                    + "the lifetrace command-line tool (libzstd) reads it")
        }
        guard UInt64(size) == declared else {
            throw DecodeFailure(offset: 0, message: "data frame holds \(size) bytes, not the \(declared) it declares")
        }
        output.removeAll(keepingCapacity: true)
        output.reserveCapacity(size)
        for block in layout.blocks {
            switch block.kind {
            case .raw:
                output.append(
                    contentsOf: UnsafeRawBufferPointer(
                        rebasing: frame[block.dataOffset..<block.dataOffset + block.size]))
            case .rle:
                output.append(contentsOf: repeatElement(frame[block.dataOffset], count: block.size))
            case .compressed:
                preconditionFailure("storedContentSize is nil for a frame with a compressed block")
            }
        }
        if layout.hasChecksum {
            let stored = loadUInt32LE(frame, at: frame.count - 4)
            let computed = output.withUnsafeBytes { UInt32(truncatingIfNeeded: XXH64.hash($0)) }
            guard stored == computed else {
                throw DecodeFailure(offset: 0, message: "zstd: restored data doesn't match checksum")
            }
        }
        defer { if output.capacity > FormatConstants.keptBufferSize { output = [] } }
        return try output.withBytes(body)
    }
}
