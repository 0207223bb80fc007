public import LifetraceCore

/// Something that takes a stream of events and writes them as a trace: ``BinaryTraceWriter`` or
/// ``JSONLinesWriter``.
public protocol EventWriter: AnyObject {
    /// Appends an event; its `t` must not be smaller than the previous event's.
    func append(_ event: LifecycleEvent) throws(TraceError)
    /// Makes every event appended so far readable by another process (ends the current frame).
    func flush() throws(TraceError)
    /// Flushes and writes whatever closes the trace (the index of a binary trace).
    func close() throws(TraceError)
    /// The events whose bytes the sink has taken. Events of a write that failed never count: a failed write
    /// loses what it held, and the writer goes on with the next events.
    var writtenEventCount: Int { get }
}

/// Opens a writer for `path`, binary unless the path ends in `.jsonl` or `.json`; `-` writes binary to
/// standard output unless `jsonLines` is set.
public func makeEventWriter(
    path: String,
    header: TraceHeader?,
    jsonLines: Bool? = nil,
    options: BinaryTraceWriter.Options = .init()
) throws(TraceError) -> any EventWriter {
    try makeEventWriter(sink: try FileSink(path: path), header: header, jsonLines: jsonLines, options: options)
}

/// Opens a writer for `sink`, binary unless its path ends in `.jsonl`, `.ndjson` or `.json`, or `jsonLines` says.
public func makeEventWriter(
    sink: FileSink,
    header: TraceHeader?,
    jsonLines: Bool? = nil,
    options: BinaryTraceWriter.Options = .init()
) throws(TraceError) -> any EventWriter {
    let path = sink.path
    let asJSON = jsonLines ?? (path.hasSuffix(".jsonl") || path.hasSuffix(".json") || path.hasSuffix(".ndjson"))
    if asJSON { return JSONLinesWriter(sink: sink, header: header) }
    return try BinaryTraceWriter(sink: sink, header: header, options: options)
}

/// The check every writer makes before it takes an event.
@inline(__always)
func validate(_ event: LifecycleEvent, after previousT: Int64, index: Int, file: String) throws(TraceError) {
    if event.t >= previousT, event.isPlainlyValid { return }
    if let problem = event.problem {
        throw TraceError(.malformed, file: file, at: .file, "event \(index): \(problem)")
    }
    if event.t < previousT {
        throw TraceError(
            .malformed, file: file, at: .file,
            "event \(index): t=\(event.t) is before the previous event's t=\(previousT)")
    }
}
