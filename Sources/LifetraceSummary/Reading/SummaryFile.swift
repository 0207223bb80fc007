import LifetraceCore
import LifetraceFormat
package import SystemPackage

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

    /// What `path` holds (`-`: standard input), from its first line (at most a line a reader accepts).
    ///
    /// Only a regular file is read here. A pipe (`<(command)`), a FIFO or a device gives its bytes once, and they
    /// are the trace reader's: such an input is a ``Content/trace``, never opened by this call. Standard input is
    /// read where it stands without moving it (`pread`), when it is a regular file.
    public static func content(of path: String) -> Content {
        content(of: path, standardInput: .standardInput)
    }

    /// What `path` holds, as ``content(of:)`` tells it, `-` being `standardInput` (a command run in a test's
    /// process reads what the test gives it).
    package static func content(of path: String, standardInput: FileDescriptor) -> Content {
        guard let object = firstLineObject(path, standardInput: standardInput) else { return .trace }
        let version = "\(SummaryRow.CodingKeys.summaryVersion.stringValue)"
        if object[version] != nil { return .summary }
        return object["lifetrace"] == nil && object["t"] == nil ? .neither : .trace
    }

    /// The bytes read first to find a first line: most files (a binary trace, a summary) are told from them.
    static let firstLineLimit = 1 << 16

    /// The first line of the regular file at `path`, if it is a JSON object. Its first ``firstLineLimit`` bytes
    /// are read; where they begin an object but hold no line's end, the start is read again as far as the longest
    /// line a reader accepts (``FormatConstants/maxLineLength``), so that a summary is told by its content
    /// whatever its first row's length (a build named in 70,000 bytes).
    private static func firstLineObject(_ path: String, standardInput: FileDescriptor) -> JSONValue? {
        for limit in [firstLineLimit, FormatConstants.maxLineLength + 4] {
            var start = [UInt8](repeating: 0, count: limit)
            guard
                let got = try? start.withUnsafeMutableBytes({
                    try readStart(of: path, standardInput: standardInput, into: $0)
                })
            else { return nil }
            var line = start[0..<got]
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
            guard line.first == UInt8(ascii: "{") else { return nil }
            if let newline = line.firstIndex(of: UInt8(ascii: "\n")) {
                line = line[..<newline]
            } else if got == limit {
                continue  // The line goes on past what was read.
            }
            guard let value = try? JSONValue(parsing: String(decoding: line, as: UTF8.self), file: path),
                case .object = value
            else { return nil }
            return value
        }
        return nil
    }

    /// Reads the start of the regular file at `path` (`-`: `standardInput`) into `buffer`; throws for anything
    /// else, which is not read.
    private static func readStart(
        of path: String, standardInput: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer
    ) throws -> Int {
        if path == "-" { return try readStart(of: standardInput, into: buffer) }
        // A FIFO is not opened: opening it would let its writer start, and closing it end the writer's pipe.
        guard try FilePath(path).stat().type == .regular else { throw Errno.illegalSeek }
        // Not blocking, should the path have become a FIFO since.
        let descriptor = try path.withCString { try FileDescriptor.open($0, .readOnly, options: .nonBlocking) }
        defer { try? descriptor.close() }
        return try readStart(of: descriptor, into: buffer)
    }

    /// Reads from where the regular file open as `descriptor` stands, without moving it (`pread`): `/dev/stdin` and
    /// `/dev/fd/N` opened on macOS share the offset of the descriptor they name, from which the reader reads next.
    private static func readStart(of descriptor: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws
        -> Int
    {
        guard try descriptor.stat().type == .regular else { throw Errno.illegalSeek }
        return try descriptor.read(fromAbsoluteOffset: descriptor.seek(offset: 0, from: .current), into: buffer)
    }

    /// Adds the rows of the summary file at `path` (`-`: standard input) to `observations`, a line at a time, in
    /// bounded memory: a line longer than a mebibyte comes in pieces, none of them a row, so it is an error, never a
    /// bigger buffer.
    ///
    /// - Throws: a ``TraceError`` naming the file, and the line for one that is not a summary row.
    public static func read(_ path: String, into observations: inout SummaryObservations) throws {
        try read(path, standardInput: .standardInput, into: &observations)
    }

    /// Adds the rows of the summary file at `path` to `observations`, as ``read(_:into:)`` does, `-` being
    /// `standardInput`.
    package static func read(
        _ path: String, standardInput: FileDescriptor, into observations: inout SummaryObservations
    ) throws {
        let descriptor = path == "-" ? standardInput : try FileDescriptor.open(forReading: path)
        defer { if path != "-" { try? descriptor.close() } }
        var lines = LineStream(descriptor: descriptor)
        var number = 0
        while try lines.next({ (bytes) throws(TraceError) in
            number += 1
            try observations.add(line: bytes, number: number, file: path)
        }) {}
    }
}
