public import LifetraceCore
package import SystemPackage

/// Reads a trace, binary or JSON Lines, one event at a time in constant memory.
///
/// The format is told by content, not by the file name: a `.lifetrace` file starts with its header frame's
/// skippable-frame magic, JSON Lines with `{`.
///
/// ```swift
/// let reader = try TraceReader(path: "run.lifetrace")
/// while let event = try reader.next() { print(event.eventName) }
/// for warning in reader.warnings { print(warning) }
/// ```
public final class TraceReader {
    /// The two encodings of a trace.
    public enum Format: String, Sendable {
        /// The `.lifetrace` binary format.
        case binary
        /// JSON Lines.
        case jsonLines = "json-lines"
    }

    /// The path as the user gave it (`-` for standard input).
    public let path: String
    /// The trace's encoding.
    public let format: Format
    private let source: any EventSource
    private var batch: [LifecycleEvent] = []
    private var position = 0

    /// Opens `path` (`-` for standard input) and reads its header; data frames are decompressed with `codec`.
    ///
    /// ``FrameCodec/stored`` reads what the recorder writes with no C library; `LifetraceZstd` adds
    /// `init(path:)`, which reads every trace with libzstd.
    public convenience init(path: String, codec: FrameCodec) throws(TraceError) {
        try self.init(path: path, codec: codec, standardInput: .standardInput)
    }

    /// Opens `path` and reads its header, as ``init(path:codec:)`` does; `-` is `standardInput` (a command run in a
    /// test's process reads what the test gives it).
    package init(path: String, codec: FrameCodec, standardInput: FileDescriptor) throws(TraceError) {
        self.path = path
        let bytes = try FileByteSource(path: path, standardInput: standardInput)
        let available = try bytes.fill(atLeast: 4)
        let head: [UInt8] = bytes.withAvailableBytes { Array($0.prefix(4)) }
        if available >= 4, FormatConstants.isSkippableMagic(head.withUnsafeBytes { loadUInt32LE($0, at: 0) }) {
            format = .binary
            source = try BinaryEventSource(source: bytes, codec: codec)
        } else if available >= 4, head == [0x28, 0xB5, 0x2F, 0xFD] {
            throw TraceError(
                .unrecognized, file: path, at: .byte(0, frame: 0),
                "zstd data without a lifetrace header frame: not a lifetrace trace")
        } else if available == 0, path.hasSuffix(".lifetrace") {
            throw TraceError(.malformed, file: path, at: .byte(0, frame: 0), "empty file: no header frame")
        } else if let first = head.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }), first != UInt8(ascii: "{")
        {
            throw TraceError(
                .unrecognized, file: path, at: .byte(0, frame: nil),
                "not a lifetrace trace: neither a .lifetrace header frame nor JSON Lines")
        } else {
            format = .jsonLines
            source = try JSONLinesEventSource(source: bytes)
        }
        batch.reserveCapacity(1 << 16)
    }

    /// The trace's metadata, or `nil` when it has none.
    public var header: TraceHeader? { source.header }

    /// What the reader recovered from so far; complete once ``next()`` has returned `nil`.
    public var warnings: [TraceWarning] { source.warnings }

    /// What the reader learned about the container so far; complete once ``next()`` has returned `nil`.
    public var statistics: TraceStatistics { source.statistics }

    /// The next event, or `nil` at the end of the trace.
    ///
    /// - Throws: ``TraceError`` for damage that cannot be read past; a truncated end is a warning instead.
    @inline(__always)
    public func next() throws(TraceError) -> LifecycleEvent? {
        if position == batch.count {
            batch.removeAll(keepingCapacity: true)
            position = 0
            while batch.isEmpty {
                guard try source.nextBatch(into: &batch) else { return nil }
            }
        }
        defer { position += 1 }
        return batch[position]
    }

    /// Lends every remaining event to `body`, in order. Events that ``next()`` already returned are not
    /// visited again.
    ///
    /// - Throws: ``TraceError`` for damage, or what `body` throws.
    public func forEachEvent(_ body: (borrowing LifecycleEvent) throws -> Void) throws {
        while position < batch.count {
            try body(batch[position])
            position += 1
        }
        batch.removeAll(keepingCapacity: true)
        position = 0
        try source.forEachRemaining(body)
    }

    /// Lends every remaining event to `body` a block at a time, in order: the fastest way to visit a trace,
    /// with no event stored and no string copied. Events that ``next()`` already returned are not visited
    /// again; no block is empty.
    ///
    /// With `decodingThreads` above 1, a `.lifetrace` file's frames are decoded on that many threads at once,
    /// for a `body` whose work per event is light next to decoding; the blocks still come in order. With 0 they
    /// are decoded on the caller's thread (no thread is started: for many small traces read in parallel).
    ///
    /// - Throws: ``TraceError`` for damage, or what `body` throws.
    package func forEachBlock(decodingThreads: Int = 1, _ body: (borrowing EventBlock) throws -> Void) throws {
        if position < batch.count {
            var rest = EventBlock()
            for event in batch[position...] { rest.append(event) }
            batch.removeAll(keepingCapacity: true)
            position = 0
            try body(rest)
        }
        try source.forEachRemainingBlock(decodingThreads: decodingThreads, body)
    }

    /// Counts every remaining event by kind and the scenes they name, checking every event as
    /// ``forEachBlock(decodingThreads:_:)`` does (the same errors at the same bytes), but faster: a `.lifetrace`
    /// file's frames are counted without decoding their records. Events that ``next()`` already returned are
    /// not counted; `decodingThreads` is as for ``forEachBlock(decodingThreads:_:)``.
    ///
    /// - Throws: ``TraceError`` for damage.
    package func tallyEvents(decodingThreads: Int = 1) throws -> EventTally {
        var tally = EventTally()
        if position < batch.count {
            var rest = EventBlock()
            for event in batch[position...] { rest.append(event) }
            batch.removeAll(keepingCapacity: true)
            position = 0
            var counted = BlockTally()
            counted.count(rest)
            tally.add(counted)
        }
        try source.tallyRemaining(decodingThreads: decodingThreads, into: &tally)
        return tally
    }
}
