import LifetraceCore

/// Copies every intact frame of a damaged `.lifetrace` file into a new, valid one.
///
/// A frame is kept when it decompresses (zstd's checksum included) and decodes; damaged frames are dropped,
/// and after damage to a frame's header the scan resumes at the next frame magic. The new file gets a fresh
/// index. `lifetrace recover` prints the ``Report``.
public enum TraceRecovery {
    /// A region of the input that was not copied.
    public struct DroppedRegion: Hashable, Sendable, CustomStringConvertible {
        /// Where the region starts.
        public var offset: Int
        /// Its size in bytes.
        public var size: Int
        /// The frame number the region was read as.
        public var frame: Int
        /// Why it was dropped.
        public var reason: String

        /// `frame 3 at byte 8120 (5012 bytes): zstd: checksum mismatch`.
        public var description: String { "frame \(frame) at byte \(offset) (\(size) bytes): \(reason)" }
    }

    /// What a recovery kept and dropped.
    public struct Report: Hashable, Sendable {
        /// Data frames copied.
        public var keptFrames = 0
        /// Events in the copied frames.
        public var keptEvents = 0
        /// Regions not copied.
        public var dropped: [DroppedRegion] = []
        /// Whether the input's header frame was unreadable, so an empty one was written.
        public var headerReplaced = false
    }

    /// Recovers `input` into `output`.
    ///
    /// - Throws: ``TraceError`` when the input cannot be read at all or is not a binary trace, or the output
    ///   cannot be written.
    public static func recover(input: String, output: String, codec: FrameCodec) throws(TraceError) -> Report {
        let source = try FileByteSource(path: input)
        guard try source.fill(atLeast: 1) > 0 else {
            throw TraceError(.malformed, file: input, at: .byte(0, frame: 0), "empty file: no header frame")
        }
        let scanner = FrameScanner(source: source)
        // Created with the first byte to keep: an input refused at its start leaves an existing output as it was.
        var sink: FileSink?
        var report = Report()
        var written = 0
        var index: [IndexEntry] = []
        var decoder = EventBlockDecoder(fileMinorVersion: FormatConstants.minorVersion)
        let decompressor = codec.makeDecompressor()
        var scratch = EventBlock()
        var lastT: Int64 = 0
        var sawHeader = false

        func write(_ bytes: UnsafeRawBufferPointer) throws(TraceError) {
            if sink == nil { sink = try FileSink(path: output) }
            try sink!.write(bytes)
            written += bytes.count
        }
        func writeEmptyHeader() throws(TraceError) {
            try HeaderFrame.encode(nil).withBytes { (raw) throws(TraceError) in try write(raw) }
            report.headerReplaced = true
            sawHeader = true
        }

        scan: while true {
            let step: FrameScanner.Step
            do throws(TraceError) {
                step = try scanner.next()
            } catch  where error.kind == .io {
                throw error
            } catch {
                guard case let .byte(offset, frame) = error.position else { throw error }
                if !sawHeader, offset == 0 {
                    throw TraceError(
                        .unrecognized, file: input, at: .byte(0, frame: 0),
                        "not a binary lifetrace trace: \(error.message)")
                }
                scanner.abandonCurrent()
                // The damaged frame starts where the scanner stands, which is before `offset` when the damage is
                // inside its blocks.
                let start = source.offset
                let resumed = try scanner.resynchronize()
                report.dropped.append(
                    DroppedRegion(
                        offset: start, size: resumed?.skipped ?? (source.offset - start),
                        frame: frame ?? 0, reason: error.message))
                if resumed == nil { break scan }
                continue
            }
            switch step {
            case .end:
                break scan
            case let .truncated(offset, fileEnd, number):
                report.dropped.append(
                    DroppedRegion(
                        offset: offset, size: fileEnd - offset, frame: number,
                        reason: "incomplete frame at the end of the file"))
                break scan
            case let .frame(frame):
                switch frame.kind {
                case .skippable(FormatConstants.headerFrameMagic) where !sawHeader:
                    let contents: HeaderFrame.Contents? = try? scanner.withFrameBytes {
                        (payload) throws(DecodeFailure) in
                        try HeaderFrame.decode(payload)
                    }
                    guard let contents, contents.major <= FormatConstants.majorVersion else {
                        if let contents {
                            throw TraceError(
                                .unsupportedVersion, file: input, at: .byte(12, frame: 0),
                                "written in format version \(contents.major).\(contents.minor); "
                                    + "this lifetrace reads version \(FormatConstants.majorVersion).x")
                        }
                        report.dropped.append(
                            DroppedRegion(
                                offset: frame.offset, size: frame.size, frame: frame.number,
                                reason: "unreadable header frame"))
                        try writeEmptyHeader()
                        continue
                    }
                    decoder.fileMinorVersion = contents.minor
                    sawHeader = true
                    try scanner.withFrameBytes { (payload) throws(TraceError) in
                        try SkippableFrame.encode(magic: FormatConstants.headerFrameMagic, payload: Array(payload))
                            .withBytes { (raw) throws(TraceError) in try write(raw) }
                    }
                case .skippable(FormatConstants.headerFrameMagic):
                    // A second header frame, which every reader refuses: dropped.
                    report.dropped.append(
                        DroppedRegion(
                            offset: frame.offset, size: frame.size, frame: frame.number,
                            reason: "a second header frame"))
                    continue
                case .skippable(FormatConstants.indexFrameMagic):
                    continue  // The index is rebuilt.
                case .skippable:
                    if !sawHeader {
                        throw TraceError(
                            .unrecognized, file: input, at: .byte(0, frame: 0),
                            "not a binary lifetrace trace: no header frame")
                    }
                    try scanner.withFrameBytes { (payload) throws(TraceError) in
                        guard case let .skippable(magic) = frame.kind else { return }
                        try SkippableFrame.encode(magic: magic, payload: Array(payload))
                            .withBytes { (raw) throws(TraceError) in try write(raw) }
                    }
                case .data:
                    if !sawHeader {
                        report.dropped.append(DroppedRegion(offset: 0, size: 0, frame: 0, reason: "no header frame"))
                        try writeEmptyHeader()
                    }
                    let summary: EventBlockDecoder.Summary
                    do throws(DecodeFailure) {
                        summary = try scanner.withFrameBytes { (bytes) throws(DecodeFailure) in
                            try decompressor.decompress(bytes, limit: FormatConstants.maxFrameContentSize) {
                                (content) throws(DecodeFailure) in
                                try decoder.decode(content, into: &scratch)
                            }
                        }
                        try summary.checkStart(after: lastT)
                    } catch {
                        report.dropped.append(
                            DroppedRegion(
                                offset: frame.offset, size: frame.size, frame: frame.number,
                                reason: error.message))
                        continue
                    }
                    index.append(
                        IndexEntry(
                            offset: Int64(written), firstT: summary.firstT,
                            eventCount: Int64(summary.eventCount + summary.skippedUnknown)))
                    try scanner.withFrameBytes { (bytes) throws(TraceError) in try write(bytes) }
                    lastT = summary.lastT
                    report.keptFrames += 1
                    report.keptEvents += summary.eventCount
                }
            }
        }
        if !sawHeader { try writeEmptyHeader() }
        try IndexFrame.encode(index).withBytes { (raw) throws(TraceError) in try write(raw) }
        return report
    }
}
