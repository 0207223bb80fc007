public import LifetraceFormat

extension FrameCodec {
    /// libzstd's compression at `level` (1, fastest, to 19, smallest; 3 is zstd's default). Reads every zstd
    /// frame, stored ones included.
    public static func zstd(level: Int32 = 3) -> FrameCodec {
        FrameCodec(
            name: "zstd-\(level)", compressor: { ZstdCompressor(level: level) },
            decompressor: { ZstdDecompressor() })
    }

    /// libzstd at its default level, 3: what the command-line tool writes and reads with.
    public static let zstd = FrameCodec.zstd()
}

extension BinaryTraceWriter.Options {
    /// libzstd at level 3 and 1 MiB frames: what the command-line tool writes.
    public static let zstd = BinaryTraceWriter.Options(codec: .zstd)
}
