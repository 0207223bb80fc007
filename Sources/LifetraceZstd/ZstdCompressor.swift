internal import CZstd
import LifetraceFormat

/// Compresses data frames with libzstd: one zstd frame per call, with its content size and checksum.
///
/// Owns its compression context exclusively; confine an instance to one thread at a time.
final class ZstdCompressor: FrameCompressor {
    private let context: OpaquePointer
    private var output: [UInt8] = []

    /// A compressor at `level` (zstd's 1...19; 3 is zstd's default).
    init(level: Int32) {
        guard let context = ZSTD_createCCtx() else { fatalError("ZSTD_createCCtx failed: out of memory") }
        self.context = context
        ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level)
        ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1)
        ZSTD_CCtx_setParameter(context, ZSTD_c_contentSizeFlag, 1)
    }

    deinit {
        ZSTD_freeCCtx(context)
    }

    func compressFrame<R, E: Error>(_ content: [UInt8], _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R
    {
        let bound = ZSTD_compressBound(content.count)
        if output.count < bound { output = [UInt8](repeating: 0, count: bound) }
        let written = content.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { destination in
                ZSTD_compress2(context, destination.baseAddress, destination.count, source.baseAddress, source.count)
            }
        }
        // With a large enough output buffer and valid parameters, compression cannot fail.
        precondition(ZSTD_isError(written) == 0, String(cString: ZSTD_getErrorName(written)))
        let result: Result<R, E> = output.withUnsafeBytes { raw in
            do throws(E) { return .success(try body(UnsafeRawBufferPointer(rebasing: raw[0..<written]))) } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
