/// The whole text of a small file a command is given besides its traces: a configuration, a baseline, a model.
///
/// Read as a trace is (``FileByteSource``: `-` is standard input, and a pipe, `--config <(jq … base.json)`, reads
/// as a file does), but whole and bounded, so `/dev/zero` or a trace given by mistake is an error, not the process's
/// memory. A UTF-8 byte-order mark, which some editors write, is dropped, as Foundation's readers drop it.
package enum SettingsFile {
    /// The most bytes such a file may hold.
    package static let limit = 16 << 20

    /// The text of the file at `path`, called `what` in errors (`"the configuration"`).
    ///
    /// - Throws: a ``TraceError`` naming the file: it cannot be opened (with the system's reason), is a
    ///   directory, cannot be read, is larger than `limit` bytes, or is not UTF-8.
    package static func text(of path: String, _ what: String, limit: Int = SettingsFile.limit) throws(TraceError) -> String {
        let source = try FileByteSource(path: path)
        guard try source.fill(atLeast: limit + 1) <= limit else {
            let size = limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"
            throw TraceError(.limitExceeded, file: path, at: .byte(limit, frame: nil), "\(what) is larger than \(size)")
        }
        let text = source.withAvailableBytes { bytes in
            String(validUTF8: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...])
        }
        guard let text else { throw TraceError(.malformed, file: path, at: .file, "\(what) is not UTF-8 text") }
        return text
    }
}
