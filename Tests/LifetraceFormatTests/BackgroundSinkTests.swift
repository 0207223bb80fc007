import Foundation
import LifetraceFormat
import Testing

/// The sink that writes on a thread of its own: every byte in order, across chunk boundaries, whatever the sizes of
/// the writes; a failed write reported to the producer and nothing written after it.
@Suite struct BackgroundSinkTests {
    /// Records what reaches it: the bytes, and each call in order; fails the write numbered `failingWrite`.
    final class Recording: TraceSink, @unchecked Sendable {
        private let lock = NSLock()
        private var bytes: [UInt8] = []
        private var calls: [String] = []
        private var writes = 0
        let failingWrite: Int?

        init(failingWrite: Int? = nil) {
            self.failingWrite = failingWrite
        }

        var written: [UInt8] { lock.withLock { bytes } }
        var log: [String] { lock.withLock { calls } }

        func write(_ bytes: UnsafeRawBufferPointer) throws(TraceError) {
            lock.lock()
            defer { lock.unlock() }
            writes += 1
            if writes == failingWrite {
                calls.append("failed write")
                throw TraceError(.io, file: "out.json", at: .file, "write failed: No space left on device")
            }
            calls.append("write \(bytes.count)")
            self.bytes.append(contentsOf: bytes)
        }

        func flush() throws(TraceError) {
            lock.withLock { calls.append("flush") }
        }
    }

    /// Writes of 0 to 3 chunks and a few bytes, in a pattern that lands on, just before and just after each boundary.
    static let sizes = [0, 1, 7, 15, 16, 17, 3, 48, 5, 0, 33, 2, 64, 1]

    static func pattern(_ count: Int, from start: Int) -> [UInt8] {
        (0 ..< count).map { UInt8(truncatingIfNeeded: (start + $0) &* 31 &+ 7) }
    }

    @Test func everyByteArrivesInOrderInWholeChunksThenTheFlush() throws {
        let recording = Recording()
        let sink = BackgroundSink(recording, chunkSize: 16, chunkCount: 2)
        var expected: [UInt8] = []
        for size in Self.sizes {
            let piece = Self.pattern(size, from: expected.count)
            try piece.withUnsafeBytes { try sink.write($0) }
            expected += piece
        }
        try sink.flush()
        #expect(recording.written == expected)
        // 212 bytes: 13 chunks of 16 while writing, the last 4 at the flush, then the underlying sink's flush.
        #expect(expected.count == 212)
        #expect(recording.log == Array(repeating: "write 16", count: 13) + ["write 4", "flush"])
    }

    @Test func aFailedWriteReachesTheProducerAndNothingIsWrittenAfterIt() throws {
        let recording = Recording(failingWrite: 2)
        let sink = BackgroundSink(recording, chunkSize: 16, chunkCount: 2)
        let piece = Self.pattern(16 * 6, from: 0)
        var thrown: TraceError?
        do {
            try piece.withUnsafeBytes { try sink.write($0) }
            try sink.flush()
        } catch let error as TraceError {
            thrown = error
        }
        #expect(thrown?.description == "out.json: write failed: No space left on device")
        #expect(recording.written == Array(piece[..<16]))
        #expect(recording.log == ["write 16", "failed write"])
        // Later calls keep reporting it.
        #expect(throws: TraceError.self) { try sink.flush() }
    }

    @Test func aSinkReleasedUnflushedWritesWhatItWasGiven() throws {
        let recording = Recording()
        let piece = Self.pattern(40, from: 3)
        do {
            let sink = BackgroundSink(recording, chunkSize: 16, chunkCount: 3)
            try piece.withUnsafeBytes { try sink.write($0) }
        }
        // Two full chunks, then the 8 bytes of the one being filled; no flush was asked for.
        #expect(recording.written == piece)
        #expect(recording.log == ["write 16", "write 16", "write 8"])
    }
}
