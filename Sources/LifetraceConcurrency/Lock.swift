#if canImport(Glibc)
package import Glibc
#elseif canImport(Musl)
package import Musl
#elseif canImport(Darwin)
package import Darwin
#endif

/// A mutual-exclusion lock over `pthread_mutex_t`, for Linux and Apple platforms alike.
package final class Lock: @unchecked Sendable {
    /// The mutex itself, for ``Condition`` to wait on.
    let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// A new, unlocked lock.
    package init() {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    @inline(__always)
    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Takes the lock.
    @inline(__always)
    package func lock() {
        pthread_mutex_lock(mutex)
    }

    /// Releases the lock.
    @inline(__always)
    package func unlock() {
        pthread_mutex_unlock(mutex)
    }
}

/// A mutex (`pthread_mutex_t`) in memory its owner lays out, for example at the start of each shard of one
/// allocation so that shards never share a cache line: ``byteCount`` and ``alignment`` say how much room it
/// needs. The owner initializes it once, locks and unlocks it through the same address, and destroys it
/// before freeing the memory; the value itself is only that address.
package struct InlineMutex {
    @usableFromInline
    let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// The bytes a mutex takes.
    package static var byteCount: Int { MemoryLayout<pthread_mutex_t>.size }
    /// The alignment a mutex needs.
    package static var alignment: Int { MemoryLayout<pthread_mutex_t>.alignment }

    /// The mutex at `memory`, which ``initialize(at:)`` made.
    @inlinable
    package init(at memory: UnsafeMutableRawPointer) {
        mutex = memory.assumingMemoryBound(to: pthread_mutex_t.self)
    }

    /// Makes a new, unlocked mutex at `memory` (``byteCount`` bytes aligned to ``alignment``).
    package static func initialize(at memory: UnsafeMutableRawPointer) {
        let mutex = memory.bindMemory(to: pthread_mutex_t.self, capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    /// Takes the lock.
    @inlinable
    package func lock() {
        pthread_mutex_lock(mutex)
    }

    /// Releases the lock.
    @inlinable
    package func unlock() {
        pthread_mutex_unlock(mutex)
    }

    /// Destroys the mutex; its memory may then be freed or reused.
    package func destroy() {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
    }
}

/// A value only ever touched while holding its lock.
///
/// The value lives behind a pointer, so the hot path pays for the mutex and nothing else (no closure
/// context, no dynamic exclusivity check).
package final class LockedValue<Value>: @unchecked Sendable {
    private let mutex = Lock()
    private let storage: UnsafeMutablePointer<Value>

    /// Guards `value`.
    package init(_ value: Value) {
        storage = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        storage.initialize(to: value)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// Runs `body` on the value, holding the lock.
    @inline(__always)
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        mutex.lock()
        defer { mutex.unlock() }
        return try body(&storage.pointee)
    }

    /// Takes the lock and returns the value's address; valid until ``unlock()``.
    @inline(__always)
    package func lock() -> UnsafeMutablePointer<Value> {
        mutex.lock()
        return storage
    }

    /// Releases the lock ``lock()`` took.
    @inline(__always)
    package func unlock() {
        mutex.unlock()
    }
}

extension LockedValue where Value == Bool {
    /// Sets the flag; whether this call set it. Of the calls that race to do something once, the one that gets
    /// `true` does it.
    package func claim() -> Bool {
        withLock { isSet in
            defer { isSet = true }
            return !isSet
        }
    }
}
