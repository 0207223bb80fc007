public import LifetraceFormat

extension TraceReader {
    /// Opens `path` (`-` for standard input) and reads its header; data frames of any zstd kind, compressed
    /// or stored, are decompressed with libzstd.
    public convenience init(path: String) throws(TraceError) {
        try self.init(path: path, codec: .zstd)
    }
}

extension TraceRecovery {
    /// Recovers `input` into `output`, checking each frame with libzstd.
    public static func recover(input: String, output: String) throws(TraceError) -> Report {
        try recover(input: input, output: output, codec: .zstd)
    }
}
