package import SystemPackage

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
    private let descriptor: FileDescriptor
    private let ownsDescriptor: Bool
    /// The bytes written whole so far: where a failed write is cut back to.
    private var committed: Int64 = 0

    /// Creates (or truncates) `path` for writing; `-` is standard output.
    public convenience init(path: String) throws(TraceError) {
        try self.init(path: path, standardOutput: .standardOutput)
    }

    /// Creates (or truncates) `path` for writing; `-` is `standardOutput`, which the sink writes to and never closes
    /// (a command run in a test's process writes its standard output where the test reads it).
    package init(path: String, standardOutput: FileDescriptor) throws(TraceError) {
        self.path = path
        if path == "-" {
            descriptor = standardOutput
            ownsDescriptor = false
        } else {
            do {
                descriptor = try Self.openForWriting(path, [.create, .truncate])
            } catch {
                throw .io(path, at: .file, "cannot create", error)
            }
            ownsDescriptor = true
        }
    }

    private init(path: String, descriptor: FileDescriptor) {
        self.path = path
        self.descriptor = descriptor
        ownsDescriptor = true
    }

    /// Creates `path` for writing if no file has that name; `nil` if one has (it is left as it is).
    public static func createNew(path: String) throws(TraceError) -> FileSink? {
        try createNew(path: path, naming: path)
    }

    /// Creates `path` for writing, with the permission bits `mode`, if no file has that name; `nil` if one has. Its
    /// errors name the file as `name`: the file a staged output (written beside its destination, then renamed to
    /// it) becomes.
    package static func createNew(path: String, naming name: String, mode: UInt16 = 0o666) throws(TraceError)
        -> FileSink?
    {
        do {
            let permissions = FilePermissions(rawValue: .init(mode))
            return FileSink(
                path: name, descriptor: try openForWriting(path, [.create, .exclusiveCreate], permissions: permissions))
        } catch Errno.fileExists {
            return nil
        } catch {
            throw .io(name, at: .file, "cannot create", error)
        }
    }

    /// Opens `path` for writing, as given (not normalized as `FilePath` would be), with `permissions` (less the
    /// process's umask) if created.
    private static func openForWriting(
        _ path: String, _ options: FileDescriptor.OpenOptions,
        permissions: FilePermissions = FilePermissions(rawValue: 0o666)
    ) throws -> FileDescriptor {
        try path.withCString { try FileDescriptor.open($0, .writeOnly, options: options, permissions: permissions) }
    }

    deinit {
        if ownsDescriptor { try? descriptor.close() }
    }

    /// Writes all of `bytes`, retrying short writes. A write that fails part-way (a full disk, protected
    /// data that became unavailable) is cut back out of a file, so the file still ends at a frame boundary
    /// and later writes follow on from there.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(TraceError) {
        var done = 0
        while done < bytes.count {
            do {
                // Retries writes a signal interrupted.
                done += try descriptor.write(UnsafeRawBufferPointer(rebasing: bytes[done...]))
            } catch {
                if ownsDescriptor, done > 0 {
                    _ = try? descriptor.resize(to: committed)
                    _ = try? descriptor.seek(offset: committed, from: .start)
                }
                throw .io(path, at: .file, "write failed", error)
            }
        }
        committed += Int64(done)
    }

    /// Nothing to do: `write(2)` already handed the bytes to the kernel, which keeps them if the process dies.
    public func flush() throws(TraceError) {}
}
