import LifetraceCore
import LifetraceFormat
import LifetraceIngest
import LifetraceTestSupport
import LifetraceZstd

/// Feeding a session and reading back what it wrote.
extension TemporaryDirectory {
    /// The trace `name` as `lifetrace dump` prints it: its header line, then one JSON line per event.
    func dump(_ name: String) throws -> String {
        let reader = try TraceReader(path: file(name))
        let writer = JSONLinesWriter(sink: try FileSink(path: file(name + ".dump.jsonl")), header: reader.header)
        try reader.forEachEvent { event in try writer.append(event) }
        try writer.close()
        return String(decoding: read(name + ".dump.jsonl"), as: UTF8.self)
    }
}

extension RecordSession {
    /// Takes every line of `text` (split at newlines, as `record` reads its input) and returns the lines passed
    /// through.
    func take(lines text: String) throws -> [String] {
        var passed: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            var bytes = Array(line.utf8)
            if let echo = try bytes.withUnsafeMutableBufferPointer({ try take(UnsafeBufferPointer($0)) }) {
                passed.append(echo)
            }
        }
        return passed
    }
}
