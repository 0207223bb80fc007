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
    private let mutex = Lock()
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    /// A new, unlocked condition.
    package init() {
        condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        precondition(pthread_cond_init(condition, nil) == 0, "pthread_cond_init failed")
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    /// Takes the lock.
    package func lock() {
        mutex.lock()
    }

    /// Releases the lock.
    package func unlock() {
        mutex.unlock()
    }

    /// Releases the lock until a broadcast, then takes it again. Call it in a loop over the awaited state.
    package func wait() {
        pthread_cond_wait(condition, mutex.mutex)
    }

    /// Wakes every waiting thread; call it holding the lock, after changing the awaited state.
    package func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
