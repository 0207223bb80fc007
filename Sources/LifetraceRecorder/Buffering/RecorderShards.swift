import LifetraceConcurrency

/// The recorder's buffers: one ``RecorderState`` and one mutex per shard, each thread recording into a shard
/// of its own (the shards are handed out in turn, a thread's kept in thread-local storage), so threads that
/// record at once do not wait for each other unless there are more of them than shards.
///
/// Each shard (mutex and state) starts on a 128-byte boundary of one allocation, so two shards never share
/// a cache line, and reaching a shard costs pointer arithmetic, not a reference count.
final class RecorderShards: @unchecked Sendable {
    /// The most shards a recorder has.
    static let maxCount = 16
    /// The fewest events a shard holds: a smaller buffer gets fewer shards.
    static let minimumCapacity = 256

    /// The number of shards, a power of two.
    let count: Int
    /// The events each shard holds.
    let capacity: Int
    private let stride: Int
    private let stateOffset: Int
    private let base: UnsafeMutableRawPointer
    /// Each thread's shard index.
    private let slot = ThreadLocalSlot()
    /// The shard the next thread gets.
    private let nextShard = LockedValue(0)

    /// As many shards as `totalCapacity` fills with ``minimumCapacity`` events each (a power of two from 1
    /// to ``maxCount``), sharing `totalCapacity` events between them.
    init(totalCapacity: Int) {
        var count = 1
        while count * 2 <= Self.maxCount, count * 2 * Self.minimumCapacity <= totalCapacity { count *= 2 }
        self.count = count
        let capacity = totalCapacity / count
        self.capacity = capacity
        let line = 128
        stateOffset =
            (InlineMutex.byteCount + MemoryLayout<RecorderState>.alignment - 1)
            / MemoryLayout<RecorderState>.alignment * MemoryLayout<RecorderState>.alignment
        stride = (stateOffset + MemoryLayout<RecorderState>.size + line - 1) / line * line
        precondition(InlineMutex.alignment <= line)
        base = UnsafeMutableRawPointer.allocate(byteCount: stride * count, alignment: line)
        for index in 0..<count {
            InlineMutex.initialize(at: base.advanced(by: index * stride))
            base.advanced(by: index * stride + stateOffset).bindMemory(to: RecorderState.self, capacity: 1)
                .initialize(to: RecorderState(capacity: capacity))
        }
    }

    deinit {
        for index in 0..<count {
            mutex(index).destroy()
            state(index).deinitialize(count: 1)
        }
        base.deallocate()
    }

    /// The shard of the calling thread.
    @inline(__always)
    var current: Int {
        if let index = slot.value { return index }
        return assignShard()
    }

    /// Gives the calling thread the next shard in turn.
    @inline(never)
    private func assignShard() -> Int {
        let count = self.count
        let index = nextShard.withLock { next in
            defer { next = (next + 1) & (count - 1) }
            return next
        }
        slot.set(index)
        return index
    }

    @inline(__always)
    func mutex(_ index: Int) -> InlineMutex {
        InlineMutex(at: base.advanced(by: index * stride))
    }

    @inline(__always)
    func state(_ index: Int) -> UnsafeMutablePointer<RecorderState> {
        base.advanced(by: index * stride + stateOffset).assumingMemoryBound(to: RecorderState.self)
    }

    /// Locks shard `index` and returns its state, valid until ``unlock(_:)``.
    @inline(__always)
    func lock(_ index: Int) -> UnsafeMutablePointer<RecorderState> {
        mutex(index).lock()
        return state(index)
    }

    @inline(__always)
    func unlock(_ index: Int) {
        mutex(index).unlock()
    }

    /// Runs `body` on shard `index`'s state, holding its lock.
    @inline(__always)
    func withLock<R>(_ index: Int, _ body: (inout RecorderState) throws -> R) rethrows -> R {
        let state = lock(index)
        defer { unlock(index) }
        return try body(&state.pointee)
    }
}
