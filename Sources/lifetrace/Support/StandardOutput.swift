import Foundation
import LifetraceFormat

/// Buffered writes to standard output.
struct StandardOutput {
    private var buffer: [UInt8] = []

    mutating func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func line(_ text: String = "") {
        write(text + "\n")
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        FileHandle.standardOutput.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }
}

extension StandardOutput {
    /// Writes `text` to the file `path`, or to standard output for `-`.
    static func write(_ text: String, to path: String) throws {
        if path == "-" {
            var out = StandardOutput()
            out.write(text)
            out.flush()
            return
        }
        let sink = try FileSink(path: path)
        var bytes = Array(text.utf8)
        try bytes.withUnsafeMutableBytes { raw in try sink.write(UnsafeRawBufferPointer(raw)) }
    }
}
