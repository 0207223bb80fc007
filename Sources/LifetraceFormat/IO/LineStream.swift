package import SystemPackage

/// Reads lines from a file descriptor as they arrive, for live streams (a pipe from a running test) and files read
/// a line at a time (summary files), in memory bounded by ``maxLine``.
package struct LineStream {
    private let descriptor: FileDescriptor
    private var buffer: [UInt8] = []
    private var start = 0
    private var eof = false
    /// Lines longer than this are delivered in pieces of this size.
    package static let maxLine = 1 << 20

    package init(descriptor: FileDescriptor) {
        self.descriptor = descriptor
        buffer.reserveCapacity(1 << 16)
    }

    /// Calls `body` with the next line (without its newline); returns `false` at the end of the stream.
    package mutating func next(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws -> Bool {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                try buffer.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[start..<newline])) }
                start = newline + 1
                return true
            }
            if eof || buffer.count - start >= LineStream.maxLine {
                guard start < buffer.count else { return false }
                let end = buffer.count
                try buffer.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[start..<end])) }
                start = end
                return true
            }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            // Retries reads a signal interrupted; a read that fails otherwise ends the stream.
            let got = (try? chunk.withUnsafeMutableBytes { try descriptor.read(into: $0) }) ?? 0
            if got <= 0 {
                eof = true
            } else {
                buffer.append(contentsOf: chunk[0..<got])
            }
        }
    }
}
