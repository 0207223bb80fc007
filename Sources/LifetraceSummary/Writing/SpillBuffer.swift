import Foundation
import LifetraceFormat
import SystemPackage

/// Bytes appended in memory up to a limit, then in an unnamed temporary file; read back once, in order.
final class SpillBuffer {
    /// The most bytes kept in memory before they go to the file.
    static let memoryLimit = 1 << 20

    private var bytes: [UInt8] = []
    /// The temporary file, created when first needed and unlinked at once, and how much of it is in use.
    private var file: FileDescriptor?
    private var spilled: Int64 = 0
    /// Set when the file could not be made or written: everything stays in memory from then on.
    private var spillFailed = false

    init() {
        bytes.reserveCapacity(Self.memoryLimit / 4)
    }

    deinit {
        try? file?.close()
    }

    /// Appends `row` as one line of JSON.
    func append(_ row: SummaryRow) {
        row.appendLine(to: &bytes)
        if bytes.count >= Self.memoryLimit { spill() }
    }

    /// Appends what `other` holds, and empties it.
    func append(contentsOf other: SpillBuffer) {
        if other.spilled > 0 {
            spill()
            if file == nil, !spillFailed {
                file = try? Self.makeFile()
                spillFailed = file == nil
            }
            if let file, !spillFailed {
                do {
                    try other.forEachChunk { chunk in _ = try file.writeAll(chunk) }
                    spilled = try file.seek(offset: 0, from: .current)
                } catch {
                    spillFailed = true
                    try? other.forEachChunk { chunk in bytes.append(contentsOf: chunk) }
                }
            } else {
                try? other.forEachChunk { chunk in bytes.append(contentsOf: chunk) }
            }
        }
        bytes.append(contentsOf: other.bytes)
        other.removeAll()
        if bytes.count >= Self.memoryLimit { spill() }
    }

    /// Empties the buffer, keeping its file for the next trace.
    func removeAll() {
        bytes.removeAll(keepingCapacity: bytes.capacity <= Self.memoryLimit * 2)
        if spilled > 0, let file {
            _ = try? file.resize(to: 0)
            _ = try? file.seek(offset: 0, from: .start)
        }
        spilled = 0
    }

    /// Writes everything, in order, to `sink`.
    func write(to sink: FileSink) throws {
        try forEachChunk { chunk in try sink.write(chunk) }
        try bytes.withUnsafeBytes { try sink.write($0) }
    }

    /// Lends what the file holds, a chunk at a time, in order.
    private func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard spilled > 0, let file else { return }
        var chunk = [UInt8](repeating: 0, count: Self.memoryLimit)
        var offset: Int64 = 0
        while offset < spilled {
            let got = try chunk.withUnsafeMutableBytes { buffer in
                try file.read(fromAbsoluteOffset: offset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(buffer.count, Int(spilled - offset))]))
            }
            guard got > 0 else { throw TraceError(.io, file: "<temporary file>", at: .file, "read back short") }
            try chunk.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<got])) }
            offset += Int64(got)
        }
    }

    /// Moves the bytes in memory to the end of the file.
    private func spill() {
        guard !spillFailed, !bytes.isEmpty else { return }
        do {
            let file = try self.file ?? Self.makeFile()
            self.file = file
            try bytes.withUnsafeBytes { _ = try file.writeAll($0) }
            spilled += Int64(bytes.count)
            bytes.removeAll(keepingCapacity: true)
        } catch {
            // No temporary file (a full or read-only disk): memory holds the rest, nothing is lost.
            spillFailed = true
        }
    }

    /// A new file in the temporary directory, unlinked at once: the descriptor alone holds it.
    private static func makeFile() throws -> FileDescriptor {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("lifetrace-rows-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)").path
        let file = try path.withCString {
            try FileDescriptor.open($0, .readWrite, options: [.create, .exclusiveCreate], permissions: [.ownerReadWrite])
        }
        try? FileManager.default.removeItem(atPath: path)
        return file
    }
}
