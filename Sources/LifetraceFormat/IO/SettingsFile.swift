import SystemPackage

/// The whole text of a small file a command is given besides its traces: a configuration, a baseline, a model.
///
/// Read through one descriptor to its end, so a pipe (`--config <(jq … base.json)`) reads as a file does; and
/// bounded, so `/dev/zero` or a trace given by mistake is an error, not the process's memory.
package enum SettingsFile {
    /// The most bytes such a file may hold.
    package static let limit = 16 << 20

    /// The text of the file at `path`, called `what` in errors (`"the configuration"`).
    ///
    /// - Throws: a ``TraceError`` naming the file: it cannot be opened (with the system's reason), is a
    ///   directory, cannot be read, is larger than `limit` bytes, or is not UTF-8.
    package static func text(of path: String, _ what: String, limit: Int = SettingsFile.limit) throws(TraceError) -> String {
        let descriptor: FileDescriptor
        do {
            descriptor = try path.withCString { try FileDescriptor.open($0, .readOnly) }
        } catch {
            throw .io(path, at: .file, "cannot open \(what)", error)
        }
        defer { try? descriptor.close() }
        if (try? descriptor.stat())?.type == .directory {
            throw TraceError(.io, file: path, at: .file, "\(what) is a directory")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got: Int
            do {
                got = try chunk.withUnsafeMutableBytes { try descriptor.read(into: $0) }
            } catch {
                throw .io(path, at: .byte(bytes.count, frame: nil), "cannot read \(what)", error)
            }
            if got == 0 { break }
            guard bytes.count + got <= limit else {
                let size = limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"
                throw TraceError(.limitExceeded, file: path, at: .byte(limit, frame: nil), "\(what) is larger than \(size)")
            }
            bytes.append(contentsOf: chunk[0 ..< got])
        }
        guard let text = String(validUTF8: bytes) else {
            throw TraceError(.malformed, file: path, at: .file, "\(what) is not UTF-8 text")
        }
        return text
    }
}
