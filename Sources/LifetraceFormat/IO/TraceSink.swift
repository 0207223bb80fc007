#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a writer puts its bytes: a file, standard output, or memory.
public protocol TraceSink {
    /// Writes all of `bytes`.
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws(TraceError)
    /// Makes what was written durable enough to survive the writing process being killed.
    mutating func flush() throws(TraceError)
}

/// Collects a trace in memory.
public struct MemorySink: TraceSink, Sendable {
    /// Every byte written so far.
    public private(set) var bytes: [UInt8] = []

    /// Creates an empty sink.
    public init() {}

    /// Appends `bytes`.
    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws(TraceError) {
        self.bytes.append(contentsOf: bytes)
    }

    /// Does nothing: memory is as durable as it gets.
    public mutating func flush() throws(TraceError) {}
}

/// Writes a trace to a file descriptor with `write(2)`, so that every completed write survives the process
/// being killed with SIGKILL.
public final class FileSink: TraceSink {
    /// The path as the user gave it (`-` for standard output).
    public let path: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// The bytes written whole so far: where a failed write is cut back to.
    private var committed: Int64 = 0

    /// Creates (or truncates) `path` for writing; `-` is standard output.
    public init(path: String) throws(TraceError) {
        self.path = path
        if path == "-" {
            descriptor = 1
            ownsDescriptor = false
        } else {
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard fd >= 0 else {
                throw TraceError(.io, file: path, at: .file, "cannot create: \(String(cString: strerror(errno)))")
            }
            descriptor = fd
            ownsDescriptor = true
        }
    }

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
        ownsDescriptor = true
    }

    /// Creates `path` for writing if no file has that name; `nil` if one has (it is left as it is).
    public static func createNew(path: String) throws(TraceError) -> FileSink? {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else {
            if errno == EEXIST { return nil }
            throw TraceError(.io, file: path, at: .file, "cannot create: \(String(cString: strerror(errno)))")
        }
        return FileSink(path: path, descriptor: fd)
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// Writes all of `bytes`, retrying short writes. A write that fails part-way (a full disk, protected
    /// data that became unavailable) is cut back out of a file, so the file still ends at a frame boundary
    /// and later writes follow on from there.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(TraceError) {
        var done = 0
        while done < bytes.count {
            let written = systemWrite(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if written < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                if ownsDescriptor, done > 0, let end = off_t(exactly: committed) {
                    _ = ftruncate(descriptor, end)
                    _ = lseek(descriptor, end, SEEK_SET)
                }
                throw TraceError(.io, file: path, at: .file, "write failed: \(reason)")
            }
            done += written
        }
        committed += Int64(done)
    }

    /// Nothing to do: `write(2)` already handed the bytes to the kernel, which keeps them if the process dies.
    public func flush() throws(TraceError) {}
}

@inline(__always)
private func systemWrite(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, pointer, count)
}
