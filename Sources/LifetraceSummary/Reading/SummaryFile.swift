import LifetraceCore
import LifetraceFormat
import SystemPackage

/// A summary file: JSON Lines of ``SummaryRow``s, as `summarize` writes them, read back for `compare`.
public enum SummaryFile {
    /// What a file given to `compare` holds, told by its first line.
    public enum Content: Sendable, Equatable {
        /// Summary rows: the first line is an object with a `summary_version` member, in any place among its
        /// members (a warehouse's export orders them its own way). A byte-order mark before it is looked past here,
        /// and refused when the file is read.
        case summary
        /// A first line that is a JSON object and no summary row, no trace's header (`lifetrace`) and no event (`t`).
        case neither
        /// Anything else: a trace (binary, or JSON Lines), or what reading it as one will refuse.
        case trace
    }

    /// What `path` holds, from its first ``firstLineLimit`` bytes, read once.
    public static func content(of path: String) -> Content {
        guard let object = firstLineObject(path) else { return .trace }
        let version = "\(SummaryRow.CodingKeys.summaryVersion.stringValue)"
        if object[version] != nil { return .summary }
        return object["lifetrace"] == nil && object["t"] == nil ? .neither : .trace
    }

    /// The most bytes read to find a first line.
    static let firstLineLimit = 1 << 16

    /// The first line of the file at `path`, if it is a JSON object within its first ``firstLineLimit`` bytes.
    private static func firstLineObject(_ path: String) -> JSONValue? {
        guard let descriptor = try? FileDescriptor.open(forReading: path) else { return nil }
        defer { try? descriptor.close() }
        var start = [UInt8](repeating: 0, count: firstLineLimit)
        guard let got = try? start.withUnsafeMutableBytes({ try descriptor.read(into: $0) }) else { return nil }
        var line = start[0 ..< got]
        if line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
        guard line.first == UInt8(ascii: "{") else { return nil }
        if let newline = line.firstIndex(of: UInt8(ascii: "\n")) { line = line[..<newline] }
        guard let value = try? JSONValue(parsing: String(decoding: line, as: UTF8.self), file: path),
              case .object = value else { return nil }
        return value
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
