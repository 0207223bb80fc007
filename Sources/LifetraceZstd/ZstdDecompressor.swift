internal import CZstd
import LifetraceFormat

/// Decompresses data frames with libzstd into one reused buffer, refusing any frame larger than the format
/// allows. The frame's layout (block sizes among it) was checked by the scanner before.
///
/// Owns its decompression context exclusively; confine an instance to one thread at a time.
final class ZstdDecompressor: FrameDecompressor {
    private let context: OpaquePointer
    private var output: [UInt8] = []

    init() {
        guard let context = ZSTD_createDCtx() else { fatalError("ZSTD_createDCtx failed: out of memory") }
        self.context = context
    }

    deinit {
        ZSTD_freeDCtx(context)
    }

    func decompress<R>(
        _ frame: UnsafeRawBufferPointer,
        limit: Int,
        _ body: (UnsafeRawBufferPointer) throws(DecodeFailure) -> R
    ) throws(DecodeFailure) -> R {
        let declared = ZSTD_getFrameContentSize(frame.baseAddress, frame.count)
        if declared == ZSTD_CONTENTSIZE_ERROR {
            throw DecodeFailure(at: 0, "zstd: bad frame header")
        }
        if declared == ZSTD_CONTENTSIZE_UNKNOWN {
            throw DecodeFailure(at: 0, "data frame does not declare its content size")
        }
        guard declared <= UInt64(limit) else {
            throw DecodeFailure(at: 0, "data frame declares \(declared) bytes, more than the \(limit) allowed")
        }
        let size = Int(declared)
        if output.count < max(size, 1) { output = [UInt8](repeating: 0, count: max(size, 1)) }
        let produced = output.withUnsafeMutableBytes { destination in
            ZSTD_decompressDCtx(context, destination.baseAddress, size, frame.baseAddress, frame.count)
        }
        if ZSTD_isError(produced) != 0 {
            throw DecodeFailure(at: 0, "zstd: \(String(cString: ZSTD_getErrorName(produced)).lowercased())")
        }
        guard produced == size else {
            throw DecodeFailure(at: 0, "data frame holds \(produced) bytes, not the \(size) it declares")
        }
        defer { if output.count > FormatConstants.keptBufferSize { output = [] } }
        let result: Result<R, DecodeFailure> = output.withUnsafeBytes { raw in
            do throws(DecodeFailure) {
                return .success(try body(UnsafeRawBufferPointer(rebasing: raw[0..<size])))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
