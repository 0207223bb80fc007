#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The recorder's buffers: one ``RecorderState`` and one mutex per shard, a thread recording into the shard
/// its identity hashes to, so threads that record at once rarely wait for each other.
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
        for index in 0..<count {
            pthread_mutex_destroy(mutex(index))
            state(index).deinitialize(count: 1)
        }
        base.deallocate()
    }

    /// The shard of the calling thread.
    @inline(__always)
    var current: Int {
        #if canImport(Darwin)
        let key = UInt64(UInt(bitPattern: pthread_self()))
        #else
        let key = UInt64(pthread_self())
        #endif
        // Fibonacci hashing: thread descriptors are page-aligned addresses, so their low bits say nothing.
        return Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 40) & (count - 1)
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
