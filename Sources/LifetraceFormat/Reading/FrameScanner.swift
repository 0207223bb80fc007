/// Walks the frames of a binary trace one at a time, holding at most one frame in memory.
///
/// It checks only framing: magics, sizes and completeness. What a frame holds is the reader's business.
final class FrameScanner {
    /// A frame found in the file.
    struct Frame {
        enum Kind: Equatable {
            /// A zstd skippable frame, with its magic.
            case skippable(UInt32)
            /// An ordinary zstd frame.
            case data
        }

        var kind: Kind
        /// The byte offset of the frame in the file.
        var offset: Int
        /// The frame's size in bytes, header included.
        var size: Int
        /// The frame's number: 0 for the first frame of the file.
        var number: Int
        /// The content size a data frame declares (0 when it declares none, and for a skippable frame): what
        /// decoding it will hold, before its bytes are read.
        var declaredContentSize = 0
    }

    /// What ``next()`` found.
    enum Step {
        /// A complete frame; its bytes are available through ``withFrameBytes(_:)`` until the next call.
        case frame(Frame)
        /// The file ends in the middle of a frame that starts at `offset`.
        case truncated(offset: Int, fileEnd: Int, frameNumber: Int)
        /// The file ends at a frame boundary.
        case end
    }

    let source: FileByteSource
    private var current: Frame?
    private var nextNumber = 0

    /// The largest compressed data frame the scanner accepts.
    static let maxCompressedFrameSize =
        FormatConstants.maxFrameContentSize + FormatConstants.maxFrameContentSize / 64 + 4096

    init(source: FileByteSource) {
        self.source = source
    }

    var path: String { source.path }

    /// The offset just past the last byte read.
    var offset: Int { source.offset + (current?.size ?? 0) }

    func error(_ kind: TraceError.Kind, at offset: Int, frame: Int?, _ message: String) -> TraceError {
        TraceError(kind, file: source.path, at: .byte(offset, frame: frame), message)
    }

    /// Moves to the next frame.
    func next() throws(TraceError) -> Step {
        if let current {
            source.consume(current.size)
            self.current = nil
        }
        let offset = source.offset
        let number = nextNumber
        let available = try source.fill(atLeast: 8)
        if available == 0 { return .end }
        if available < 4 { return .truncated(offset: offset, fileEnd: offset + available, frameNumber: number) }
        let magic = source.withAvailableBytes { loadUInt32LE($0, at: 0) }
        if FormatConstants.isSkippableMagic(magic) {
            if available < 8 { return .truncated(offset: offset, fileEnd: offset + available, frameNumber: number) }
            let payloadSize = Int(clamping: source.withAvailableBytes { loadUInt32LE($0, at: 4) })
            let limit =
                magic == FormatConstants.indexFrameMagic
                ? FormatConstants.maxIndexPayloadSize : FormatConstants.maxSkippablePayloadSize
            guard payloadSize <= limit else {
                throw error(
                    .limitExceeded, at: offset, frame: number,
                    "skippable frame declares \(payloadSize) bytes, more than the \(limit) allowed")
            }
            let got = try source.fill(atLeast: 8 + payloadSize)
            guard got >= 8 + payloadSize else {
                return .truncated(offset: offset, fileEnd: offset + got, frameNumber: number)
            }
            return found(Frame(kind: .skippable(magic), offset: offset, size: 8 + payloadSize, number: number))
        }
        guard magic == FormatConstants.zstdFrameMagic else {
            throw error(
                .malformed, at: offset, frame: number,
                "not a zstd frame (magic 0x\(String(magic, radix: 16, uppercase: true)))")
        }
        var want = min(available, 1 << 16)
        while true {
            let got = try source.fill(atLeast: want)
            let layout: ZstdFrameLayout?
            do throws(DecodeFailure) {
                layout = try source.withAvailableBytes { (bytes) throws(DecodeFailure) in
                    try ZstdFrameLayout.parse(bytes)
                }
            } catch {
                throw self.error(.malformed, at: offset + error.offset, frame: number, error.message)
            }
            if let layout {
                let declared = Int(clamping: layout.declaredContentSize ?? 0)
                return found(
                    Frame(
                        kind: .data, offset: offset, size: layout.frameSize, number: number,
                        declaredContentSize: declared))
            }
            if source.reachedEOF {
                // A cut file ends inside its last frame. If whole frames follow, the bytes of this one are
                // damaged instead (a block size changed, bytes deleted): that is an error, never a truncation.
                if let later = source.withAvailableBytes({ Self.completeFrame(in: $0, after: 4) }) {
                    throw error(
                        .malformed, at: offset, frame: number,
                        "damaged frame: its blocks run past a whole frame that starts at byte \(offset + later)")
                }
                return .truncated(offset: offset, fileEnd: offset + got, frameNumber: number)
            }
            guard got < FrameScanner.maxCompressedFrameSize else {
                throw error(
                    .limitExceeded, at: offset, frame: number,
                    "data frame is larger than the \(FrameScanner.maxCompressedFrameSize) bytes allowed")
            }
            want = min(got * 2, FrameScanner.maxCompressedFrameSize)
        }
    }

    /// The offset of the first whole frame (a skippable frame, or a zstd frame whose blocks all fit) that
    /// starts at or after `start` in `bytes`, if any.
    static func completeFrame(in bytes: UnsafeRawBufferPointer, after start: Int) -> Int? {
        var i = start
        while i + 8 <= bytes.count {
            let magic = loadUInt32LE(bytes, at: i)
            if FormatConstants.isSkippableMagic(magic) {
                let size = Int(clamping: loadUInt32LE(bytes, at: i + 4))
                if i + 8 + size <= bytes.count { return i }
            } else if magic == FormatConstants.zstdFrameMagic {
                let rest = UnsafeRawBufferPointer(rebasing: bytes[i...])
                if let layout = try? ZstdFrameLayout.parse(rest), layout.blocks.count > 0 { return i }
            }
            i += 1
        }
        return nil
    }

    /// Counts the damaged region skipped by a resynchronisation as one frame.
    func nextNumberAfterResync() {
        nextNumber += 1
    }

    /// Forgets the current frame without consuming it: the next call to ``next()`` starts at the same offset.
    func abandonCurrent() {
        current = nil
    }

    private func found(_ frame: Frame) -> Step {
        current = frame
        nextNumber += 1
        return .frame(frame)
    }

    /// The current frame's bytes: the payload of a skippable frame, the whole of a data frame.
    func withFrameBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        guard let current else { preconditionFailure("no current frame") }
        return try source.withAvailableBytes { (bytes) throws(E) -> R in
            switch current.kind {
            case .skippable: try body(UnsafeRawBufferPointer(rebasing: bytes[8..<current.size]))
            case .data: try body(UnsafeRawBufferPointer(rebasing: bytes[0..<current.size]))
            }
        }
    }
}

extension FrameScanner {
    /// After damage to the frame the scanner stands at (in its header or in its blocks), drops bytes up to the
    /// next zstd or skippable-frame magic after that frame's first byte.
    ///
    /// - Returns: the offset where scanning resumes and the bytes skipped from the damaged frame's start, or
    ///   `nil` if the file has none.
    func resynchronize() throws(TraceError) -> (offset: Int, skipped: Int)? {
        // The scanner's window starts at the damaged frame, whichever byte of it the damage was found at: step
        // past its first byte and search.
        var skipped = 0
        source.consume(min(1, source.available))
        skipped += 1
        while true {
            let available = try source.fill(atLeast: 4)
            guard available >= 4 else {
                skipped += available
                source.consume(available)
                return nil
            }
            let found: Int? = source.withAvailableBytes { bytes in
                var i = 0
                while i + 4 <= bytes.count {
                    let magic = loadUInt32LE(bytes, at: i)
                    if magic == FormatConstants.zstdFrameMagic || FormatConstants.isSkippableMagic(magic) { return i }
                    i += 1
                }
                return nil
            }
            if let found {
                source.consume(found)
                skipped += found
                nextNumberAfterResync()
                return (source.offset, skipped)
            }
            let drop = available - 3
            source.consume(drop)
            skipped += drop
            if source.reachedEOF, source.available < 4 {
                skipped += source.available
                source.consume(source.available)
                return nil
            }
        }
    }
}
