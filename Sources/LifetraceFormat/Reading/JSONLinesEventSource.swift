import LifetraceCore

/// Decodes a JSON Lines trace a batch of lines at a time.
final class JSONLinesEventSource: EventSource {
    private let source: FileByteSource
    private var decoder: JSONLinesLineDecoder
    private var finished = false
    private var pendingFirst: LifecycleEvent?
    private(set) var header: TraceHeader?
    private(set) var warnings: [TraceWarning] = []
    private(set) var statistics = TraceStatistics()

    /// The events decoded per batch.
    private static let batchSize = 4096

    /// Reads the first line, which may be the header, and any blank lines before the first that is not blank.
    ///
    /// - Throws: a ``TraceError`` for input with no header and no event: empty, or blank lines only.
    init(source: FileByteSource) throws(TraceError) {
        self.source = source
        decoder = JSONLinesLineDecoder(file: source.path)
        while !finished, header == nil, pendingFirst == nil {
            guard let line = try readLine() else { break }
            switch line {
            case let .header(header): self.header = header
            case let .event(event): pendingFirst = event
            case .blank: break
            }
        }
        // Nothing at all (an empty pipe, a run that wrote nothing) is no trace: read as one, a gate would pass it.
        if finished, header == nil, pendingFirst == nil {
            throw TraceError(
                .malformed, file: source.path, at: .line(max(decoder.lineNumber, 1)),
                "no header and no event: the input is empty" + (decoder.lineNumber > 0 ? " but for blank lines" : ""))
        }
    }

    /// Decodes the next line, or returns `nil` at the end of the input.
    private func readLine() throws(TraceError) -> JSONLinesLineDecoder.Line? {
        var scanned = 0
        while true {
            let available = source.available
            let newline: Int? = source.withAvailableBytes { raw in
                guard scanned < raw.count else { return nil }
                let rest = UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[scanned...])
                return ByteSearch.firstOffset(of: 0x0A, in: rest).map { scanned + $0 }
            }
            let length: Int
            let consumed: Int
            if let newline {
                guard newline <= FormatConstants.maxLineLength else {
                    throw TraceError(
                        .limitExceeded, file: source.path, at: .line(decoder.lineNumber + 1),
                        "line longer than \(FormatConstants.maxLineLength) bytes")
                }
                length = newline
                consumed = newline + 1
            } else if source.reachedEOF {
                guard available > 0 else {
                    finished = true
                    return nil
                }
                length = available
                consumed = available
            } else {
                guard available <= FormatConstants.maxLineLength else {
                    throw TraceError(
                        .limitExceeded, file: source.path, at: .line(decoder.lineNumber + 1),
                        "line longer than \(FormatConstants.maxLineLength) bytes")
                }
                scanned = available
                try source.fill(atLeast: available + 1)
                continue
            }
            let line = try source.withAvailableBytes { (raw) throws(TraceError) in
                try decoder.decode(UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[0..<length]))
            }
            source.consume(consumed)
            statistics.bytes += consumed
            statistics.lines += 1
            return line
        }
    }

    private func count(_ event: LifecycleEvent) {
        if statistics.firstT == nil { statistics.firstT = event.t }
        statistics.lastT = event.t
        statistics.events += 1
    }

    /// Parses on the caller's thread, whatever `threads` allows: lines are read in order, each event appended to
    /// the block as it is parsed (a batch of events between would copy each twice more). As with ``nextBatch(into:)``,
    /// a line that fails to decode ends the reading with its error, before the events of its batch are lent.
    func forEachRemainingBlock(decodingThreads threads: Int, _ body: (borrowing EventBlock) throws -> Void) throws {
        var block = EventBlock()
        while try readBatch({ block.append($0) }) > 0 {
            try body(block)
            block.removeAll()
        }
    }

    /// The parsed events as they are, with no round trip through a block.
    func forEachRemaining(_ body: (borrowing LifecycleEvent) throws -> Void) throws {
        try forEachBatch { events in
            for event in events { try body(event) }
        }
    }

    /// Lends each remaining batch of events to `body`.
    private func forEachBatch(_ body: ([LifecycleEvent]) throws -> Void) throws {
        var events: [LifecycleEvent] = []
        while try nextBatch(into: &events) {
            try body(events)
            events.removeAll(keepingCapacity: true)
        }
    }

    func nextBatch(into events: inout [LifecycleEvent]) throws(TraceError) -> Bool {
        try readBatch { events.append($0) } > 0
    }

    /// Parses events until ``batchSize`` of them (the first line's event among them) are handed to `append`, or
    /// the input ends; returns how many were.
    private func readBatch(_ append: (LifecycleEvent) -> Void) throws(TraceError) -> Int {
        var read = 0
        if let first = pendingFirst {
            pendingFirst = nil
            count(first)
            append(first)
            read += 1
        }
        while !finished, read < JSONLinesEventSource.batchSize {
            guard let line = try readLine() else { break }
            if case let .event(event) = line {
                count(event)
                append(event)
                read += 1
            }
        }
        return read
    }
}
