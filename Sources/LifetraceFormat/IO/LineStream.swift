package import SystemPackage

/// Reads lines from a file descriptor as they arrive, for live streams (a pipe from a running test) and files read
/// a line at a time (summary files), in memory bounded by ``maxLine``.
package struct LineStream {
    private let descriptor: FileDescriptor
    private var buffer: [UInt8] = []
    private var start = 0
    private var eof = false
    /// Whether the last bytes delivered were a piece of a line that goes on.
    private var midLine = false
    /// Lines longer than this are delivered in pieces of this size.
    package static let maxLine = 1 << 20

    package init(descriptor: FileDescriptor) {
        self.descriptor = descriptor
        buffer.reserveCapacity(1 << 16)
    }

    /// Calls `body` with the next line (without its newline); returns `false` at the end of the stream. A line
    /// longer than ``maxLine`` comes in pieces, each as a line of its own.
    package mutating func next(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws -> Bool {
        try nextPiece { bytes, _ in try body(bytes) }
    }

    /// Calls `body` with the next line (without its newline), or the next piece of a line longer than
    /// ``maxLine``, and whether the bytes go on from the piece before (`continuesLine`): the number of a
    /// line is the number of pieces that did not. Returns `false` at the end of the stream.
    package mutating func nextPiece(_ body: (UnsafeBufferPointer<UInt8>, _ continuesLine: Bool) throws -> Void) throws
        -> Bool
    {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let continuing = midLine
                midLine = false
                try buffer.withUnsafeBufferPointer {
                    try body(UnsafeBufferPointer(rebasing: $0[start..<newline]), continuing)
                }
                start = newline + 1
                return true
            }
            if eof || buffer.count - start >= LineStream.maxLine {
                guard start < buffer.count else { return false }
                let end = buffer.count
                let continuing = midLine
                midLine = true
                try buffer.withUnsafeBufferPointer {
                    try body(UnsafeBufferPointer(rebasing: $0[start..<end]), continuing)
                }
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
