/// The whole text of a small file a command is given besides its traces: a configuration, a lifecycle model, a
/// baseline.
///
/// Read as a trace is (``FileByteSource``: `-` is standard input, and a pipe, `--config <(jq … base.json)`, reads
/// as a file does), but whole and bounded: a file given by mistake (a trace, `/dev/zero`) must not take the memory
/// it would. A regular file past the limit is refused before a byte is read; a pipe when it passes it. A UTF-8
/// byte-order mark, which some editors write, is dropped, as Foundation's readers drop it.
package enum SettingsFile {
    /// The text of the file at `path`, `what` (`"a configuration file"`), which may hold `limit` bytes.
    ///
    /// - Throws: a ``TraceError`` naming the file: it cannot be opened (with the system's reason), is a
    ///   directory, cannot be read, is larger than `limit` bytes, or is not UTF-8.
    package static func text(of path: String, _ what: String, limit: Int) throws(TraceError) -> String {
        let source = try FileByteSource(path: path)
        let most = limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"
        if let size = source.regularFileSize, size > Int64(limit) {
            throw TraceError(.limitExceeded, file: path, at: .file, "\(size) bytes: \(what) may be at most \(most)")
        }
        guard try source.fill(atLeast: limit + 1) <= limit else {
            throw TraceError(.limitExceeded, file: path, at: .byte(limit, frame: nil), "\(what) may be at most \(most)")
        }
        let text = source.withAvailableBytes { bytes in
            String(validUTF8: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...])
        }
        guard let text else {
            throw TraceError(.malformed, file: path, at: .file, "not UTF-8 text, which \(what) must be")
        }
        return text
    }
}
