import LifetraceConcurrency
import LifetraceFormat

/// Where an encoder's bytes go: its sink, written as they come or on a thread of its own.
///
/// An encoder gathers its bytes in a buffer and hands it over with ``write(_:)``, which gives it back empty. Written
/// as they come, the bytes are written during the call. On a thread, the buffer is swapped for an empty one, not
/// copied, and written while the encoder fills the next: writing an export of gigabytes to a file is mostly the
/// kernel copying it into its page cache, which then overlaps the encoding instead of following it. Memory is
/// ``chunkCount`` buffers besides the encoder's own, whatever the export's size.
///
/// A write that fails is kept, the bytes handed over after it are dropped, and ``finish()`` throws it: on a thread
/// as written as they come, the export ends with the first failure.
final class ExportOutput {
    /// The bytes an encoder gathers before it hands them over.
    static let bufferSize = 1 << 20
    /// The most bytes of memory a buffer keeps once written: an event of megabytes (a scene's id) leaves no buffer
    /// of its size behind.
    static let keptCapacity = 4 * bufferSize + 4096
    /// The buffers a thread swaps with the encoder's: one written while another waits to be.
    static let chunkCount = 2

    /// A buffer that crosses to the thread.
    private final class Chunk {
        var bytes = ByteWriter(capacity: ExportOutput.bufferSize + 4096)
    }

    /// The sink and its first failure: the thread's alone while it runs, the caller's once it has been joined.
    private final class Writer {
        var sink: any TraceSink
        var failure: TraceError?

        init(_ sink: any TraceSink) {
            self.sink = sink
        }

        func write(_ bytes: inout ByteWriter) {
            defer { bytes.removeAll(keepingCapacityUpTo: ExportOutput.keptCapacity) }
            guard failure == nil, !bytes.isEmpty else { return }
            do throws(TraceError) {
                try bytes.withBytes { (bytes) throws(TraceError) in try sink.write(bytes) }
            } catch {
                failure = error
            }
        }
    }

    private let writer: Writer
    /// The thread, if the bytes are written on one.
    private let relay: BatchRelay<Chunk>?

    /// Writes to `sink` as the bytes come, or on a thread of its own if `onThread`.
    init(sink: any TraceSink, onThread: Bool) {
        let writer = Writer(sink)
        self.writer = writer
        relay =
            onThread
            ? BatchRelay(batches: (0..<Self.chunkCount).map { _ in Chunk() }) { chunk in
                writer.write(&chunk.bytes)
            } : nil
    }

    deinit {
        // An export that failed part way stops here: the thread writes what it was handed, then ends.
        relay?.finish()
    }

    /// Writes `bytes`, or hands them to the thread, and leaves `bytes` empty.
    func write(_ bytes: inout ByteWriter) {
        guard let relay else { return writer.write(&bytes) }
        guard !bytes.isEmpty else { return }
        let chunk = relay.take()
        swap(&chunk.bytes, &bytes)
        relay.submit(chunk)
    }

    /// Waits until everything handed over is written, then flushes the sink. Throws the first failure.
    func finish() throws(TraceError) {
        relay?.finish()
        if let failure = writer.failure { throw failure }
        try writer.sink.flush()
    }
}
