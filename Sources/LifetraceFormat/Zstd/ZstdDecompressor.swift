internal import CZstd

/// Decompresses data frames into one reused buffer, refusing any frame larger than the format allows.
///
/// Owns its decompression context exclusively; confine an instance to one thread at a time.
final class ZstdDecompressor {
    private let context: OpaquePointer
    private var output: [UInt8] = []

    init() {
        guard let context = ZSTD_createDCtx() else { fatalError("ZSTD_createDCtx failed: out of memory") }
        self.context = context
    }

    deinit {
        ZSTD_freeDCtx(context)
    }

    /// The size of the complete zstd frame at the start of `bytes`, `nil` if `bytes` holds only part of it.
    ///
    /// - Throws: ``DecodeFailure`` when the bytes are not a zstd frame at all.
    static func frameSize(_ bytes: UnsafeRawBufferPointer) throws(DecodeFailure) -> Int? {
        let size = ZSTD_findFrameCompressedSize(bytes.baseAddress, bytes.count)
        if ZSTD_isError(size) != 0 {
            if ZSTD_getErrorCode(size) == ZSTD_error_srcSize_wrong { return nil }
            throw DecodeFailure(offset: 0, message: "zstd: \(String(cString: ZSTD_getErrorName(size)))")
        }
        return size
    }

    /// Decompresses the one zstd frame `frame` and passes its content to `body`.
    ///
    /// - Throws: ``DecodeFailure`` for a frame that declares no size, a size above `limit`, or damage
    ///   (zstd's checksum mismatch among them).
    func decompress<R>(
        _ frame: UnsafeRawBufferPointer,
        limit: Int,
        _ body: (UnsafeRawBufferPointer) throws(DecodeFailure) -> R
    ) throws(DecodeFailure) -> R {
        let declared = ZSTD_getFrameContentSize(frame.baseAddress, frame.count)
        if declared == ZSTD_CONTENTSIZE_ERROR {
            throw DecodeFailure(offset: 0, message: "zstd: bad frame header")
        }
        if declared == ZSTD_CONTENTSIZE_UNKNOWN {
            throw DecodeFailure(offset: 0, message: "data frame does not declare its content size")
        }
        guard declared <= UInt64(limit) else {
            throw DecodeFailure(offset: 0, message: "data frame declares \(declared) bytes, more than the \(limit) allowed")
        }
        let size = Int(declared)
        if output.count < max(size, 1) { output = [UInt8](repeating: 0, count: max(size, 1)) }
        let produced = output.withUnsafeMutableBytes { destination in
            ZSTD_decompressDCtx(context, destination.baseAddress, size, frame.baseAddress, frame.count)
        }
        if ZSTD_isError(produced) != 0 {
            throw DecodeFailure(offset: 0, message: "zstd: \(String(cString: ZSTD_getErrorName(produced)).lowercased())")
        }
        guard produced == size else {
            throw DecodeFailure(offset: 0, message: "data frame holds \(produced) bytes, not the \(size) it declares")
        }
        return try output.withBytes { (buffer) throws(DecodeFailure) -> R in
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<size]))
        }
    }
}
