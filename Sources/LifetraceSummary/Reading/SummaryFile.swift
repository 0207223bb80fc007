import LifetraceFormat
import SystemPackage

/// A summary file: JSON Lines of ``SummaryRow``s, as `summarize` writes them, read back for `compare`.
public enum SummaryFile {
    /// Whether `path` is a summary file: JSON Lines whose first line is a summary row (after a byte-order mark,
    /// which reading it then refuses). Only its first bytes are read.
    public static func isSummary(_ path: String) -> Bool {
        let prefix = Array("{\"\(SummaryRow.CodingKeys.summaryVersion.stringValue)\":".utf8)
        guard let descriptor = try? FileDescriptor.open(forReading: path) else { return false }
        defer { try? descriptor.close() }
        var start = [UInt8](repeating: 0, count: prefix.count + 3)
        guard let got = try? start.withUnsafeMutableBytes({ try descriptor.read(into: $0) }) else { return false }
        let bytes = start[0..<got]
        return bytes.starts(with: prefix) || bytes.starts(with: [0xEF, 0xBB, 0xBF] + prefix)
    }

    /// Adds the rows of the summary file at `path` to `observations`, a line at a time, in bounded memory: a
    /// line longer than a mebibyte comes in pieces, none of them a row, so it is an error, never a bigger buffer.
    ///
    /// - Throws: a ``TraceError`` naming the file, and the line for one that is not a summary row.
    public static func read(_ path: String, into observations: inout SummaryObservations) throws {
        let descriptor = try FileDescriptor.open(forReading: path)
        defer { try? descriptor.close() }
        var lines = LineStream(descriptor: descriptor)
        var number = 0
        while try lines.next({ (bytes) throws(TraceError) in
            number += 1
            try observations.add(line: bytes, number: number, file: path)
        }) {}
    }
}
