#if canImport(Glibc)
package import Glibc
#elseif canImport(Musl)
package import Musl
#elseif canImport(Darwin)
package import Darwin
#endif

/// One small non-negative integer per thread (`pthread_key_t`): each thread sees the value it set, or `nil`
/// before it set one.
package final class ThreadLocalSlot: @unchecked Sendable {
    /// The key; each thread's value is stored as `value + 1`, so that a thread's empty slot (a null pointer)
    /// reads as `nil`.
    @usableFromInline
    let key: pthread_key_t

    /// A new slot, empty on every thread.
    package init() {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed: \(status)")
        self.key = key
    }

    deinit {
        pthread_key_delete(key)
    }

    /// The calling thread's value, `nil` until the thread sets one.
    @inlinable
    package var value: Int? {
        guard let stored = pthread_getspecific(key) else { return nil }
        return Int(bitPattern: stored) - 1
    }

    /// Sets the calling thread's value (zero or more).
    package func set(_ value: Int) {
        precondition(value >= 0 && value < Int.max, "a thread-local slot holds a non-negative Int")
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: value + 1))
    }
}
