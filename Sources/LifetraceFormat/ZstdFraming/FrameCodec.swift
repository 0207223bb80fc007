/// How a trace's data frames are compressed when written and decompressed when read.
///
/// Every codec writes and reads ordinary zstd frames (RFC 8878), so any zstd tool reads any trace. Two exist:
///
/// - ``stored``: frames of raw (stored) blocks with zstd's content checksum, written and read in Swift
///   with no C library. It is what the recorder uses inside an app: Apple's iOS, tvOS, watchOS and visionOS
///   SDKs have no libzstd, and a lifecycle trace is a few hundred events. It reads stored frames only.
/// - `zstd(level:)`, from the `LifetraceZstd` module: libzstd's compression, which reads every frame. The
///   command-line tool uses it, and `lifetrace convert` recompresses a stored trace with it.
public struct FrameCodec: Sendable, CustomStringConvertible {
    /// The codec's name: `stored`, or `zstd-3` for libzstd at level 3.
    public let description: String
    private let compressor: @Sendable () -> any FrameCompressor
    private let decompressor: @Sendable () -> any FrameDecompressor

    /// A codec from the factories of its compressor and decompressor; each reader or writer thread makes
    /// its own.
    package init(
        name: String,
        compressor: @escaping @Sendable () -> any FrameCompressor,
        decompressor: @escaping @Sendable () -> any FrameDecompressor
    ) {
        self.description = name
        self.compressor = compressor
        self.decompressor = decompressor
    }

    /// Stored frames: raw blocks and a content checksum, no compression, no C library.
    public static let stored = FrameCodec(
        name: "stored", compressor: { StoredFrameCompressor() },
        decompressor: { StoredFrameDecompressor() })

    package func makeCompressor() -> any FrameCompressor { compressor() }
    package func makeDecompressor() -> any FrameDecompressor { decompressor() }
}

/// Turns a data frame's content into one complete zstd frame. One instance serves one thread at a time.
package protocol FrameCompressor: AnyObject {
    /// Compresses `content` into one zstd frame that declares its content size and carries its checksum,
    /// and passes the frame to `body`.
    func compressFrame<R, E: Error>(_ content: [UInt8], _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R
}

/// Turns one complete zstd frame back into its content. One instance serves one thread at a time.
package protocol FrameDecompressor: AnyObject {
    /// Decompresses the one zstd frame `frame` (its layout already checked by the scanner) and passes its
    /// content to `body`.
    ///
    /// - Throws: ``DecodeFailure`` for a frame that declares no content size or one above `limit`, or
    ///   damage (a checksum mismatch among them).
    func decompress<R>(
        _ frame: UnsafeRawBufferPointer,
        limit: Int,
        _ body: (UnsafeRawBufferPointer) throws(DecodeFailure) -> R
    ) throws(DecodeFailure) -> R
}
