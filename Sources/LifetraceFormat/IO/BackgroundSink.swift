import LifetraceConcurrency

/// Hands the writing to another sink to a thread of its own, so that the thread producing the bytes (an export's
/// encoder) goes on while the kernel copies the last chunk into the file.
///
/// Bytes are copied into one of a few chunks of fixed size; a full chunk goes to the writing thread, which writes
/// the chunks in the order they filled, and the producer takes a free chunk, waiting for one only when the writer is
/// that far behind. Its memory is the chunks', whatever is written.
///
/// The first write that fails is reported to the producer by the next ``write(_:)`` or ``flush()``, as the
/// underlying sink threw it; nothing after it is written. ``flush()`` waits for every chunk to be written, then
/// flushes the underlying sink. A sink released unflushed still writes every byte it was given (unless a write failed), then
/// stops its thread; it does not flush the underlying sink.
public final class BackgroundSink: TraceSink {
    /// What the producer and the writing thread share, under its condition's lock.
    private final class Shared: @unchecked Sendable {
        let condition = Condition()
        /// The sink written to: by the writing thread while chunks are queued, by ``flush()`` when none are.
        var base: any TraceSink
        /// Chunks ready for the producer.
        var free: [UnsafeMutableRawBufferPointer] = []
        /// Filled chunks and their byte counts, in the order they are written.
        var queued: [(chunk: UnsafeMutableRawBufferPointer, count: Int)] = []
        /// Whether a chunk is being written now.
        var writing = false
        /// The first failed write's error.
        var failure: TraceError?
        /// Set when the sink goes: the thread ends once the queue is empty.
        var closing = false

        init(base: any TraceSink) {
            self.base = base
        }

        /// The writing thread: writes queued chunks until the sink closes.
        func run() {
            condition.lock()
            while true {
                while queued.isEmpty && !closing { condition.wait() }
                if queued.isEmpty { break }
                let (chunk, count) = queued.removeFirst()
                writing = true
                let skip = failure != nil
                condition.unlock()
                var error: TraceError?
                if !skip {
                    do throws(TraceError) {
                        try base.write(UnsafeRawBufferPointer(rebasing: chunk[..<count]))
                    } catch let failed {
                        error = failed
                    }
                }
                condition.lock()
                if failure == nil { failure = error }
                writing = false
                free.append(chunk)
                condition.broadcast()
            }
            condition.unlock()
        }
    }

    private let shared: Shared
    private let thread: WorkerThread
    private let chunks: [UnsafeMutableRawBufferPointer]
    /// The chunk being filled, and its bytes so far.
    private var current: UnsafeMutableRawBufferPointer
    private var filled = 0

    /// Writes to `base` on a thread of its own, through `chunkCount` chunks of `chunkSize` bytes (at least 2 of
    /// at least 1 byte).
    ///
    /// - Parameters:
    ///   - base: The sink written to; only the writing thread uses it until ``flush()``.
    ///   - chunkSize: The bytes handed to one `write` of `base`.
    ///   - chunkCount: How many chunks: one being filled while the others are written or wait.
    public init(_ base: any TraceSink, chunkSize: Int = 1 << 20, chunkCount: Int = 3) {
        precondition(chunkSize > 0 && chunkCount >= 2, "a background sink needs 2 chunks of 1 byte or more")
        chunks = (0 ..< chunkCount).map { _ in
            UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 64)
        }
        let shared = Shared(base: base)
        shared.free = Array(chunks.dropFirst())
        shared.queued.reserveCapacity(chunkCount)
        self.shared = shared
        current = chunks[0]
        thread = WorkerThread { shared.run() }
    }

    deinit {
        shared.condition.lock()
        // The chunk being filled is written too; a free one is not needed after it.
        if filled > 0 { shared.queued.append((current, filled)) }
        shared.closing = true
        shared.condition.broadcast()
        shared.condition.unlock()
        thread.join()
        for chunk in chunks { chunk.deallocate() }
    }

    /// Copies `bytes` into the chunks, handing each full one to the writing thread.
    ///
    /// - Throws: The error of an earlier write that failed.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(TraceError) {
        var offset = 0
        while offset < bytes.count {
            let count = min(current.count - filled, bytes.count - offset)
            UnsafeMutableRawBufferPointer(rebasing: current[filled ..< filled + count])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset ..< offset + count]))
            filled += count
            offset += count
            if filled == current.count { try handOff() }
        }
    }

    /// Waits until every byte given is written, then flushes the underlying sink.
    ///
    /// - Throws: The error of a write that failed, or of the underlying sink's flush.
    public func flush() throws(TraceError) {
        if filled > 0 { try handOff() }
        shared.condition.lock()
        while !shared.queued.isEmpty || shared.writing { shared.condition.wait() }
        let failure = shared.failure
        shared.condition.unlock()
        if let failure { throw failure }
        try shared.base.flush()
    }

    /// Queues the current chunk for writing and takes a free one, waiting for it if none is.
    private func handOff() throws(TraceError) {
        shared.condition.lock()
        if let failure = shared.failure {
            shared.condition.unlock()
            filled = 0
            throw failure
        }
        shared.queued.append((current, filled))
        shared.condition.broadcast()
        while shared.free.isEmpty { shared.condition.wait() }
        current = shared.free.removeLast()
        shared.condition.unlock()
        filled = 0
    }
}
