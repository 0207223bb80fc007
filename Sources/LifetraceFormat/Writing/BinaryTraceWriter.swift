public import LifetraceCore

/// Writes a `.lifetrace` trace: a header frame, zstd data frames of events, and an index when closed.
///
/// Events are buffered into an event block; a block becomes one zstd frame (with zstd's content checksum),
/// compressed by the ``Options/codec``, when it reaches ``Options/targetFrameBytes`` or when ``flush()`` is
/// called. Each frame is written with a
/// single `write(2)`, so a process killed at any moment leaves a file whose every complete frame is intact.
public final class BinaryTraceWriter: EventWriter {
    /// The most bytes one event may take (its text, and 16 for each attribute): a frame ends once it holds
    /// ``Options/targetFrameBytes``, at most half the 16 MiB a reader takes, so that with an event of at most the
    /// other half every frame reads back.
    public static let maximumEventBytes = FormatConstants.maxFrameContentSize / 2 - 4096

    /// How the writer frames and compresses.
    public struct Options: Sendable {
        /// How data frames are compressed: ``FrameCodec/stored`` (no C library) unless a codec such as
        /// `LifetraceZstd`'s `.zstd` is given.
        public var codec: FrameCodec
        /// The size of a block's encoded events at which the writer ends the frame.
        public var targetFrameBytes: Int

        /// Creates options; the defaults are stored frames and 1 MiB frames.
        public init(codec: FrameCodec = .stored, targetFrameBytes: Int = 1 << 20) {
            self.codec = codec
            self.targetFrameBytes = min(max(targetFrameBytes, 1), FormatConstants.maxFrameContentSize / 2)
        }
    }

    private var sink: any TraceSink
    private let path: String
    private let options: Options
    private let compressor: any FrameCompressor
    private var block: EventBlockEncoder
    private var content: [UInt8] = []
    private var index: [IndexEntry] = []
    private var lastT: Int64 = 0
    private var closed = false

    /// Bytes written so far.
    public private(set) var bytesWritten = 0
    /// Events appended so far.
    public private(set) var eventCount = 0
    /// Events in frames written whole so far.
    public private(set) var writtenEventCount = 0

    /// Starts a trace in `sink` by writing its header frame.
    ///
    /// - Parameter header: the metadata; `nil` writes a header frame with no metadata, which reads back as
    ///   a trace without a header line.
    public init(sink: any TraceSink, header: TraceHeader?, options: Options = .init()) throws(TraceError) {
        self.sink = sink
        self.path = (sink as? FileSink)?.path ?? "<memory>"
        self.options = options
        self.compressor = options.codec.makeCompressor()
        self.block = EventBlockEncoder(reservingCapacity: options.targetFrameBytes + 1024)
        try write(HeaderFrame.encode(header))
    }

    /// The bytes the sink holds, if it is a ``MemorySink``.
    public var memoryBytes: [UInt8]? { (sink as? MemorySink)?.bytes }

    /// Appends an event, ending the frame when it is full.
    public func append(_ event: LifecycleEvent) throws(TraceError) {
        guard !closed else { throw TraceError(.io, file: path, at: .file, "the trace is already closed") }
        try validate(event, after: lastT, index: eventCount, file: path)
        let bytes = event.textByteCount + 16 * (event.attrs?.count ?? 0)
        if bytes > Self.maximumEventBytes {
            throw TraceError(
                .malformed, file: path, at: .file,
                "event \(eventCount): \(bytes) bytes of text and "
                    + "attributes, more than the \(Self.maximumEventBytes) one event of a frame may hold")
        }
        block.append(event)
        lastT = event.t
        eventCount += 1
        if block.byteCount >= options.targetFrameBytes || block.eventCount >= FormatConstants.maxEventsPerFrame {
            try endFrame()
        }
    }

    /// Ends the current frame, if it holds events, and writes it.
    public func flush() throws(TraceError) {
        try endFrame()
        try sink.flush()
    }

    /// Writes the last frame and the index. The writer takes no more events.
    public func close() throws(TraceError) {
        guard !closed else { return }
        try endFrame()
        try write(IndexFrame.encode(index))
        try sink.flush()
        closed = true
    }

    private func endFrame() throws(TraceError) {
        guard !block.isEmpty else { return }
        let entry = IndexEntry(offset: Int64(bytesWritten), firstT: block.firstT, eventCount: Int64(block.eventCount))
        block.finish(into: &content)
        try compressor.compressFrame(content) { (frame) throws(TraceError) in try writeRaw(frame) }
        index.append(entry)
        writtenEventCount += Int(clamping: entry.eventCount)
    }

    private func write(_ bytes: [UInt8]) throws(TraceError) {
        try bytes.withBytes { (raw) throws(TraceError) in try writeRaw(raw) }
    }

    private func writeRaw(_ bytes: UnsafeRawBufferPointer) throws(TraceError) {
        try sink.write(bytes)
        bytesWritten += bytes.count
    }
}
