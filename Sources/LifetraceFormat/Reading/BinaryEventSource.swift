import LifetraceConcurrency
import LifetraceCore

/// Decodes a `.lifetrace` file frame by frame.
final class BinaryEventSource: EventSource {
    private let scanner: FrameScanner
    private let codec: FrameCodec
    private let decompressor: any FrameDecompressor
    private var decoder: EventBlockDecoder
    /// The events of the last data frame decoded on the reader's own thread (``nextBatch(into:)``, pipes).
    private var block = EventBlock()
    private var index: [IndexEntry]?
    private var seenFrames: [IndexEntry] = []
    /// Whether the frames are all read (``nextDataFrame()`` finds no more).
    private var finished = false
    /// Whether ``finish()`` has reported the end, once every frame read was decoded and accounted.
    private var reportedEnd = false
    /// Where the trace was cut, if it was: reported when reading finishes, with the events recovered.
    private var truncation: (offset: Int, fileEnd: Int, number: Int)?
    private(set) var header: TraceHeader?
    private(set) var warnings: [TraceWarning] = []
    private(set) var statistics = TraceStatistics()

    /// Reads the header frame, which must come first.
    init(source: FileByteSource, codec: FrameCodec) throws(TraceError) {
        scanner = FrameScanner(source: source)
        self.codec = codec
        decompressor = codec.makeDecompressor()
        let path = source.path
        guard case let .frame(frame) = try scanner.next() else {
            throw TraceError(.malformed, file: path, at: .byte(0, frame: 0), "truncated in the header frame")
        }
        guard frame.kind == .skippable(FormatConstants.headerFrameMagic) else {
            throw TraceError(
                .unrecognized, file: path, at: .byte(0, frame: 0), "not a lifetrace trace: no header frame")
        }
        let contents: HeaderFrame.Contents
        do throws(DecodeFailure) {
            contents = try scanner.withFrameBytes { (payload) throws(DecodeFailure) in try HeaderFrame.decode(payload) }
        } catch {
            throw TraceError(.malformed, file: path, at: .byte(8 + error.offset, frame: 0), error.message)
        }
        guard contents.major <= FormatConstants.majorVersion else {
            throw TraceError(
                .unsupportedVersion, file: path, at: .byte(12, frame: 0),
                "written in format version \(contents.major).\(contents.minor); this lifetrace reads "
                    + "version \(FormatConstants.majorVersion).x: upgrade lifetrace")
        }
        header = contents.header
        decoder = EventBlockDecoder(fileMinorVersion: contents.minor)
        statistics.formatVersion = (contents.major, contents.minor)
        statistics.bytes = frame.size
    }

    /// Moves to the next data frame, reading the index and noting truncation on the way.
    private func nextDataFrame() throws(TraceError) -> FrameScanner.Frame? {
        while !finished {
            switch try scanner.next() {
            case .end:
                finished = true
            case let .truncated(offset, fileEnd, number):
                statistics.truncated = true
                statistics.bytes = fileEnd
                truncation = (offset, fileEnd, number)
                finished = true
            case let .frame(frame):
                statistics.bytes = frame.offset + frame.size
                switch frame.kind {
                case .data:
                    return frame
                case .skippable(FormatConstants.indexFrameMagic):
                    try readIndex(frame)
                case .skippable(FormatConstants.headerFrameMagic):
                    throw TraceError(
                        .malformed, file: scanner.path, at: .byte(frame.offset, frame: frame.number),
                        "a second header frame")
                case .skippable:
                    statistics.otherFrames += 1
                }
            }
        }
        return nil
    }

    func nextBatch(into events: inout [LifecycleEvent]) throws(TraceError) -> Bool {
        guard try readNextFrame(into: &block) else { return false }
        events.reserveCapacity(events.count + block.count)
        for row in 0..<block.count { events.append(block.event(at: row)) }
        return true
    }

    /// Lends every remaining block to `body`, decoding frames on `threads` threads while `body` reads (one
    /// thread is enough to overlap decoding with reading; more serve readers that do little per event; 0 decodes
    /// on the caller's thread, for callers that read many small traces on threads of their own).
    func forEachRemainingBlock(decodingThreads threads: Int, _ body: (borrowing EventBlock) throws -> Void) throws {
        try readRemaining(&block, decodingThreads: threads, body)
    }

    /// Counts every remaining event into `tally` with the counting walk, which checks every byte as decoding
    /// does but writes no record; frames are read on `threads` threads as by ``forEachRemainingBlock(decodingThreads:_:)``.
    func tallyRemaining(decodingThreads threads: Int, into tally: inout EventTally) throws {
        var contents = BlockTally()
        try readRemaining(&contents, decodingThreads: threads) { block in tally.add(block) }
    }

    /// Reads every remaining data frame into contents of the type of `contents` (which serves when no thread is
    /// started) and lends those that hold events to `body`, in order.
    private func readRemaining<Contents: FrameContents>(
        _ contents: inout Contents, decodingThreads threads: Int, _ body: (borrowing Contents) throws -> Void
    ) throws {
        // A pipe may keep a worker waiting for its writer after `body` has failed: read it on this thread.
        guard scanner.source.isRegularFile, threads > 0 else {
            while try readNextFrame(into: &contents) { try body(contents) }
            return
        }
        try forEachRemainingInPipeline(Contents.self, workers: threads, body)
    }

    /// Reads the next data frame that holds events into `contents`; `false` at the end of the trace.
    private func readNextFrame<Contents: FrameContents>(into contents: inout Contents) throws(TraceError) -> Bool {
        while let frame = try nextDataFrame() {
            let summary = try scanner.withFrameBytes { (bytes) throws(TraceError) in
                try Self.read(bytes, of: frame, path: scanner.path, with: decompressor, &decoder, into: &contents)
            }
            try account(frame, summary)
            if !contents.holdsNoEvent { return true }
        }
        finish()
        return false
    }

    /// Decompresses the bytes of `frame` and reads them into `contents`.
    private static func read<Contents: FrameContents>(
        _ bytes: UnsafeRawBufferPointer, of frame: FrameScanner.Frame, path: String,
        with decompressor: any FrameDecompressor,
        _ decoder: inout EventBlockDecoder, into contents: inout Contents
    ) throws(TraceError) -> EventBlockDecoder.Summary {
        do throws(DecodeFailure) {
            return try decompressor.decompress(bytes, limit: FormatConstants.maxFrameContentSize) {
                (content) throws(DecodeFailure) in
                try contents.read(content, with: &decoder)
            }
        } catch {
            throw traceError(error, in: frame, path: path)
        }
    }

    /// `failure`, met decoding the content of `frame`, as an error naming the frame.
    private static func traceError(_ failure: DecodeFailure, in frame: FrameScanner.Frame, path: String) -> TraceError {
        let detail = failure.offset > 0 ? " (at byte \(failure.offset) of the frame's content)" : ""
        return TraceError(
            .malformed, file: path, at: .byte(frame.offset, frame: frame.number), failure.message + detail)
    }

    /// Notes a decoded frame, in order, in the statistics and the list of frames the index is checked against;
    /// fails if its time goes back from the frame before.
    private func account(_ frame: FrameScanner.Frame, _ summary: EventBlockDecoder.Summary) throws(TraceError) {
        do throws(DecodeFailure) {
            try summary.checkStart(after: statistics.lastT ?? 0)
        } catch {
            throw Self.traceError(error, in: frame, path: scanner.path)
        }
        statistics.dataFrames += 1
        statistics.skippedUnknownKinds += summary.skippedUnknown
        seenFrames.append(
            IndexEntry(
                offset: Int64(frame.offset), firstT: summary.firstT,
                eventCount: Int64(summary.eventCount + summary.skippedUnknown)))
        guard summary.eventCount > 0 else { return }
        if statistics.firstT == nil { statistics.firstT = summary.firstT }
        statistics.lastT = summary.lastT
        statistics.events += summary.eventCount
    }

    /// The most content the frames decoded ahead of the reader may declare together: a run of frames of 16 MiB
    /// each (a trace of long names) is decoded two at a time, whatever the number of threads, so that a command's
    /// memory stays bounded by what two frames hold. Frames of common sizes (a few MiB) never reach it.
    static let decodedBytesInFlight = 2 * FormatConstants.maxFrameContentSize

    /// Lends the contents of every remaining frame that holds events to `body`, reading frames on `workers`
    /// threads (see ``OrderedPipeline``).
    private func forEachRemainingInPipeline<Contents: FrameContents>(
        _: Contents.Type, workers: Int, _ body: (borrowing Contents) throws -> Void
    ) throws {
        // The source's state is touched only under the pipeline's lock (claiming and accepting frames);
        // each worker decodes with a decompressor and a decoder of its own.
        nonisolated(unsafe) let source = self
        let path = scanner.path
        let states = (0..<workers).map { _ in WorkerState(decoder: decoder, decompressor: codec.makeDecompressor()) }
        // A lone worker claims its next frame only once it has decoded the last, so it decodes in the file's window;
        // with several, the next claim moves the window while a frame is decoded: each takes a copy.
        let copiesFrames = workers > 1
        try OrderedPipeline<FrameSlot<Contents>, EventBlockDecoder.Summary, TraceError>.run(
            workers: workers,
            makeSlot: FrameSlot<Contents>.init,
            budget: Self.decodedBytesInFlight,
            weigh: { slot in slot.frame?.declaredContentSize ?? 0 },
            claim: { (slot) throws(TraceError) -> Bool in
                guard let frame = try source.nextDataFrame() else { return false }
                slot.frame = frame
                if copiesFrames {
                    source.scanner.withFrameBytes { bytes in
                        slot.bytes.removeAll(keepingCapacity: true)
                        slot.bytes.append(contentsOf: bytes)
                    }
                }
                return true
            },
            work: { worker, slot in
                let state = states[worker]
                return Result { () throws(TraceError) -> EventBlockDecoder.Summary in
                    let decode = { (bytes: UnsafeRawBufferPointer) throws(TraceError) in
                        try Self.read(
                            bytes, of: slot.frame!, path: path, with: state.decompressor, &state.decoder,
                            into: &slot.contents)
                    }
                    return copiesFrames ? try slot.bytes.withBytes(decode) : try source.scanner.withFrameBytes(decode)
                }
            },
            accept: { (slot, summary) throws(TraceError) in try source.account(slot.frame!, summary) },
            consume: { slot in
                if !slot.contents.holdsNoEvent { try body(slot.contents) }
                // What a heavy frame decoded to (its strings among it) goes now, not when the slot is next used.
                if slot.frame?.declaredContentSize ?? 0 > FormatConstants.keptBufferSize { slot.contents = Contents() }
            })
        finish()
    }

    /// Reports the end of the trace once its frames are all read and accounted: the truncation, kinds
    /// skipped, and whether the index agrees. Only the first call reports.
    private func finish() {
        guard !reportedEnd else { return }
        reportedEnd = true
        if let (offset, fileEnd, number) = truncation {
            warnings.append(
                TraceWarning(
                    .truncated, file: scanner.path,
                    "truncated at byte \(fileEnd): \(Plural.count(statistics.events, "event")) recovered"
                        + " (frame \(number) at byte \(offset) is incomplete)"))
        }
        if statistics.skippedUnknownKinds > 0 {
            warnings.append(
                TraceWarning(
                    .unknownKindsSkipped, file: scanner.path,
                    "skipped \(Plural.count(statistics.skippedUnknownKinds, "event")) of kinds added in format "
                        + "version 1.\(decoder.fileMinorVersion): upgrade lifetrace to read them"))
        }
        if let index {
            statistics.indexConsistent = index == seenFrames
            if !statistics.indexConsistent {
                let listed = index.reduce(0) { $0 + $1.eventCount }
                warnings.append(
                    TraceWarning(
                        .indexDisagrees, file: scanner.path,
                        "the index lists \(Plural.count(index.count, "data frame")) of "
                            + "\(Plural.count(listed, "event")), the file holds "
                            + "\(seenFrames.count) of \(statistics.events): frames were removed or changed "
                            + "after it was written"))
            }
        }
    }

    private func readIndex(_ frame: FrameScanner.Frame) throws(TraceError) {
        do throws(DecodeFailure) {
            index = try scanner.withFrameBytes { (payload) throws(DecodeFailure) in try IndexFrame.decode(payload) }
            statistics.indexPresent = true
        } catch {
            throw TraceError(
                .malformed, file: scanner.path, at: .byte(frame.offset + 8 + error.offset, frame: frame.number),
                "index: \(error.message)")
        }
    }
}

/// What one decoding thread of ``BinaryEventSource`` owns: touched by that thread alone.
private final class WorkerState: @unchecked Sendable {
    let decompressor: any FrameDecompressor
    var decoder: EventBlockDecoder

    init(decoder: EventBlockDecoder, decompressor: any FrameDecompressor) {
        self.decoder = decoder
        self.decompressor = decompressor
    }
}

/// What a frame is read in: the frame as claimed, a copy of its bytes, and what they are read into.
private final class FrameSlot<Contents: FrameContents> {
    var frame: FrameScanner.Frame?
    var bytes: [UInt8] = []
    var contents = Contents()
}
