#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
    /// The thread-local slot holding each thread's shard index plus one.
    private let key: pthread_key_t
    /// The shard the next thread gets, guarded by ``nextShardLock``.
    private let nextShard = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    private let nextShardLock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    /// As many shards as `totalCapacity` fills with ``minimumCapacity`` events each (a power of two from 1
    /// to ``maxCount``), sharing `totalCapacity` events between them.
    init(totalCapacity: Int) {
        var count = 1
        while count * 2 <= Self.maxCount, count * 2 * Self.minimumCapacity <= totalCapacity { count *= 2 }
        self.count = count
        let capacity = totalCapacity / count
        self.capacity = capacity
        let line = 128
        stateOffset = (MemoryLayout<pthread_mutex_t>.size + MemoryLayout<RecorderState>.alignment - 1)
            / MemoryLayout<RecorderState>.alignment * MemoryLayout<RecorderState>.alignment
        stride = (stateOffset + MemoryLayout<RecorderState>.size + line - 1) / line * line
        base = UnsafeMutableRawPointer.allocate(byteCount: stride * count, alignment: line)
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed: \(status)")
        self.key = key
        nextShard.initialize(to: 0)
        nextShardLock.initialize(to: pthread_mutex_t())
        pthread_mutex_init(nextShardLock, nil)
        for index in 0..<count {
            let mutex = base.advanced(by: index * stride).bindMemory(to: pthread_mutex_t.self, capacity: 1)
            mutex.initialize(to: pthread_mutex_t())
            let status = pthread_mutex_init(mutex, nil)
            precondition(status == 0, "pthread_mutex_init failed: \(status)")
            base.advanced(by: index * stride + stateOffset).bindMemory(to: RecorderState.self, capacity: 1)
                .initialize(to: RecorderState(capacity: capacity))
        }
    }

    deinit {
        pthread_key_delete(key)
        pthread_mutex_destroy(nextShardLock)
        nextShardLock.deallocate()
        nextShard.deallocate()
        for index in 0..<count {
            pthread_mutex_destroy(mutex(index))
            state(index).deinitialize(count: 1)
        }
        base.deallocate()
    }

    /// The shard of the calling thread.
    @inline(__always)
    var current: Int {
        if let slot = pthread_getspecific(key) { return Int(bitPattern: slot) - 1 }
        return assignShard()
    }

    /// Gives the calling thread the next shard in turn.
    @inline(never)
    private func assignShard() -> Int {
        pthread_mutex_lock(nextShardLock)
        let index = nextShard.pointee
        nextShard.pointee = (index + 1) & (count - 1)
        pthread_mutex_unlock(nextShardLock)
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: index + 1))
        return index
    }

    @inline(__always)
    func mutex(_ index: Int) -> UnsafeMutablePointer<pthread_mutex_t> {
        base.advanced(by: index * stride).assumingMemoryBound(to: pthread_mutex_t.self)
    }

    @inline(__always)
    func state(_ index: Int) -> UnsafeMutablePointer<RecorderState> {
        base.advanced(by: index * stride + stateOffset).assumingMemoryBound(to: RecorderState.self)
    }

    /// Locks shard `index` and returns its state, valid until ``unlock(_:)``.
    @inline(__always)
    func lock(_ index: Int) -> UnsafeMutablePointer<RecorderState> {
        pthread_mutex_lock(mutex(index))
        return state(index)
    }

    @inline(__always)
    func unlock(_ index: Int) {
        pthread_mutex_unlock(mutex(index))
    }

    /// Runs `body` on shard `index`'s state, holding its lock.
    @inline(__always)
    func withLock<R>(_ index: Int, _ body: (inout RecorderState) throws -> R) rethrows -> R {
        let state = lock(index)
        defer { unlock(index) }
        return try body(&state.pointee)
    }
}
