import Foundation
import LifetraceFormat
import SystemPackage

/// Bytes appended in memory up to a limit, then in an unnamed temporary file; read back once, in order.
///
/// The file is made in the first of its directories where one can be (the temporary directory, then the
/// output's). Where none can, the buffer keeps nothing more, so that its memory stays bounded, and ``write(to:)``
/// fails naming the directories: rows are never held in memory without a bound, nor lost without a word.
final class SpillBuffer {
    /// The most bytes kept in memory before they go to the file.
    static let memoryLimit = 1 << 20

    private var bytes: [UInt8] = []
    /// The temporary file, created when first needed and unlinked at once, and how much of it is in use.
    private var file: FileDescriptor?
    private var spilled: Int64 = 0
    /// Set when the file could not be made or written: why, naming the directories tried. Nothing more is kept.
    private(set) var spillFailure: String?
    private var spillFailed: Bool { spillFailure != nil }
    /// Where the file may be made, in order.
    private let directories: [String]

    /// A buffer whose file is made in the first of `directories` where one can be.
    init(directories: [String]) {
        self.directories = directories
        bytes.reserveCapacity(Self.memoryLimit / 4)
    }

    deinit {
        try? file?.close()
    }

    /// Appends `row` as one line of JSON.
    func append(_ row: SummaryRow) {
        guard !spillFailed else { return }
        row.appendLine(to: &bytes)
        if bytes.count >= Self.memoryLimit { spill() }
    }

    /// Appends what `other` holds, and empties it.
    func append(contentsOf other: SpillBuffer) {
        if spillFailure == nil, let failure = other.spillFailure { spillFailure = failure }
        if other.spilled > 0, !spillFailed {
            spill()
            do {
                guard !spillFailed else { throw SpillError.noFile }
                let file = try self.file ?? makeFile()
                self.file = file
                try other.forEachChunk { chunk in _ = try file.writeAll(chunk) }
                spilled = try file.seek(offset: 0, from: .current)
            } catch {
                if spillFailure == nil { spillFailure = failureMessage(error) }
            }
        }
        if !spillFailed { bytes.append(contentsOf: other.bytes) }
        other.removeAll()
        if bytes.count >= Self.memoryLimit { spill() }
    }

    /// Empties the buffer, keeping its file for the next trace.
    func removeAll() {
        spillFailure = nil
        bytes.removeAll(keepingCapacity: bytes.capacity <= Self.memoryLimit * 2)
        if spilled > 0, let file {
            _ = try? file.resize(to: 0)
            _ = try? file.seek(offset: 0, from: .start)
        }
        spilled = 0
    }

    /// Writes everything, in order, to `sink`.
    func write(to sink: FileSink) throws {
        if let spillFailure {
            throw TraceError(.io, file: directories.first ?? "<temporary directory>", at: .file, spillFailure)
        }
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
                try file.read(
                    fromAbsoluteOffset: offset,
                    into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(buffer.count, Int(spilled - offset))]))
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
            let file = try self.file ?? makeFile()
            self.file = file
            try bytes.withUnsafeBytes { _ = try file.writeAll($0) }
            spilled += Int64(bytes.count)
            bytes.removeAll(keepingCapacity: true)
        } catch {
            // No file in any of the directories (missing, full, read-only): nothing more is kept, and the write
            // that comes says why.
            spillFailure = failureMessage(error)
            bytes = []
        }
    }

    /// Why the rows could not be kept, in one line, naming every directory tried.
    private func failureMessage(_ error: any Error) -> String {
        let tried = directories.map { "'\($0)'" }.joined(separator: " and ")
        return "cannot keep a trace's summary rows past \(Self.memoryLimit >> 20) MiB in a temporary file in \(tried) "
            + "(\(error)): set TMPDIR to a directory with room"
    }

    /// A new file in the first of ``directories`` where one can be made, unlinked at once: the descriptor alone
    /// holds it.
    private func makeFile() throws -> FileDescriptor {
        var last: any Error = SpillError.noFile
        for directory in directories {
            let path = (directory as NSString)
                .appendingPathComponent(
                    ".lifetrace-rows-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
            do {
                let file = try path.withCString {
                    try FileDescriptor.open(
                        $0, .readWrite, options: [.create, .exclusiveCreate], permissions: [.ownerReadWrite])
                }
                try? FileManager.default.removeItem(atPath: path)
                return file
            } catch {
                last = error
            }
        }
        throw last
    }

    /// No directory was given, or a file failed before.
    private enum SpillError: Error, CustomStringConvertible {
        case noFile
        var description: String { "no file could be made" }
    }
}
