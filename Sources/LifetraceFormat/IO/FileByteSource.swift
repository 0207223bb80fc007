import SystemPackage

/// Reads a file or standard input in chunks into one window that grows only as far as a frame needs.
///
/// Memory stays bounded by the largest frame the format allows, whatever the file's size, and grows only with
/// bytes that arrive: a frame that claims more bytes than the file holds costs no more than the file.
final class FileByteSource {
    /// The path as the user gave it (`-` for standard input).
    let path: String
    private let descriptor: FileDescriptor
    private let ownsDescriptor: Bool
    /// The window's storage (`capacity` bytes, uninitialized past `end`).
    private var buffer: UnsafeMutableRawPointer
    private(set) var capacity: Int
    private var start = 0
    private var end = 0
    private(set) var reachedEOF = false
    /// The size of the regular file the bytes come from, whose reads never wait for a writer; `nil` for a pipe, a
    /// terminal or a device.
    let regularFileSize: Int64?
    /// Whether the bytes come from a regular file (unlike a pipe or a terminal).
    var isRegularFile: Bool { regularFileSize != nil }
    /// The offset in the file of the first byte of the window.
    private(set) var offset = 0

    static let chunkSize = 1 << 20

    /// Opens `path` for reading; `-` is `standardInput`, which is read and never closed.
    init(path: String, standardInput: FileDescriptor = .standardInput) throws(TraceError) {
        self.path = path
        let opened: FileDescriptor
        if path == "-" {
            opened = standardInput
        } else {
            do {
                // The path as given, not normalized as `FilePath` would (`trace/` is no file).
                opened = try path.withCString { try FileDescriptor.open($0, .readOnly) }
            } catch {
                throw .io(path, at: .file, "cannot open", error)
            }
        }
        // Looked at once: what the file is, and its size if it is a regular one.
        let status = try? opened.stat()
        if status?.type == .directory {
            if path != "-" { try? opened.close() }
            throw TraceError(.io, file: path, at: .file, "is a directory")
        }
        descriptor = opened
        ownsDescriptor = path != "-"
        regularFileSize = status?.type == .regular ? status?.size : nil
        capacity = FileByteSource.chunkSize
        buffer = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        buffer.deallocate()
        if ownsDescriptor { try? descriptor.close() }
    }

    /// The number of bytes available in the window.
    var available: Int { end - start }

    /// Makes at least `count` bytes available unless the file ends first; returns how many are.
    @discardableResult
    func fill(atLeast count: Int) throws(TraceError) -> Int {
        while end - start < count, !reachedEOF {
            if start > 0, end - start < capacity / 2 || capacity - end < FileByteSource.chunkSize {
                // Slide the unread bytes to the front.
                buffer.copyMemory(from: buffer + start, byteCount: end - start)
                end -= start
                start = 0
            }
            if end == capacity {
                // Full of unread bytes: double, but never past what is asked for (and a chunk to read into).
                grow(to: min(max(count, end + FileByteSource.chunkSize), 2 * capacity))
            }
            let got: Int
            do {
                // Retries reads a signal interrupted.
                got = try descriptor.read(
                    into: UnsafeMutableRawBufferPointer(start: buffer + end, count: capacity - end))
            } catch {
                throw .io(path, at: .byte(offset + end - start, frame: nil), "read failed", error)
            }
            if got == 0 { reachedEOF = true } else { end += got }
        }
        return end - start
    }

    private func grow(to newCapacity: Int) {
        let grown = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
        grown.copyMemory(from: buffer, byteCount: end)
        buffer.deallocate()
        buffer = grown
        capacity = newCapacity
    }

    /// Passes the available bytes to `body` (valid only during the call).
    func withAvailableBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: buffer + start, count: end - start))
    }

    /// Drops `count` bytes from the front of the window.
    func consume(_ count: Int) {
        precondition(count <= end - start)
        start += count
        offset += count
    }
}
