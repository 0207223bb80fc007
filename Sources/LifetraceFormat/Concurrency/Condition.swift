#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex with a condition variable (`pthread_cond_t`): threads wait, holding the lock, until another
/// changes what they wait for and broadcasts.
package final class Condition: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    /// A new, unlocked condition.
    package init() {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
        precondition(pthread_cond_init(condition, nil) == 0, "pthread_cond_init failed")
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Takes the lock.
    package func lock() {
        pthread_mutex_lock(mutex)
    }

    /// Releases the lock.
    package func unlock() {
        pthread_mutex_unlock(mutex)
    }

    /// Releases the lock until a broadcast, then takes it again. Call it in a loop over the awaited state.
    package func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// Wakes every waiting thread; call it holding the lock, after changing the awaited state.
    package func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
