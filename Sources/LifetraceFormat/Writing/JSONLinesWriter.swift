public import LifetraceCore

/// Writes a trace as JSON Lines: the header line (if any), then one canonical line per event.
public final class JSONLinesWriter: EventWriter {
    private var sink: any TraceSink
    private let path: String
    private var buffer: [UInt8] = []
    private var lastT: Int64 = 0
    private var count = 0
    /// Events in ``buffer``.
    private var buffered = 0
    /// Events whose lines the sink has taken.
    public private(set) var writtenEventCount = 0
    private static let bufferSize = 1 << 16
    /// Whether the first line is a header, for the line numbers of errors.
    private var hasHeader = false

    /// Starts a trace in `sink`, writing the header line if there is a header.
    public init(sink: any TraceSink, header: TraceHeader?) {
        self.sink = sink
        self.path = (sink as? FileSink)?.path ?? "<memory>"
        buffer.reserveCapacity(JSONLinesWriter.bufferSize + 4096)
        if let header { JSONLinesEncoder.appendHeaderLine(header, to: &buffer) }
        hasHeader = header != nil
    }

    /// Appends one event line.
    ///
    /// - Throws: for an event whose line would be longer than a JSON Lines reader accepts
    ///   (``FormatConstants/maxLineLength``), naming it, rather than write a trace no reader reads.
    public func append(_ event: LifecycleEvent) throws(TraceError) {
        try validate(event, after: lastT, index: count, file: path)
        let start = buffer.count
        JSONLinesEncoder.appendLine(event, to: &buffer)
        let length = buffer.count - start - 1
        guard length <= FormatConstants.maxLineLength else {
            buffer.removeSubrange(start...)
            let name = event.eventName
            let shown = name.utf8.count > 80 ? String(name.prefix(80)) + "…" : name
            throw TraceError(
                .limitExceeded, file: path, at: .line(count + 1 + (hasHeader ? 1 : 0)),
                "event \(count) (\(shown) at t=\(event.t)) would be a line of \(length) bytes, more than "
                    + "the \(FormatConstants.maxLineLength) a JSON Lines reader accepts: keep the trace as .lifetrace")
        }
        lastT = event.t
        count += 1
        buffered += 1
        if buffer.count >= JSONLinesWriter.bufferSize { try flush() }
    }

    /// Writes the buffered lines; if the write fails, they are lost and the error says so.
    public func flush() throws(TraceError) {
        guard !buffer.isEmpty else { return }
        defer {
            buffer.removeAll(keepingCapacity: true)
            buffered = 0
        }
        try buffer.withBytes { (raw) throws(TraceError) in try sink.write(raw) }
        writtenEventCount += buffered
        try sink.flush()
    }

    /// Writes the buffered lines; JSON Lines has nothing else to close.
    public func close() throws(TraceError) {
        try flush()
    }

    /// The bytes the sink holds, if it is a ``MemorySink``.
    public var memoryBytes: [UInt8]? { (sink as? MemorySink)?.bytes }
}
