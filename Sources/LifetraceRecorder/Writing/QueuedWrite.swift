package import Dispatch
import LifetraceConcurrency

/// A write queued on a recorder's writer queue, and whether it has landed in the file (or failed, which the
/// unified log says): what the background activity that holds off suspension waits for, off the main thread.
package final class QueuedWrite: Sendable {
    /// Entered from creation until the write lands.
    private let pending = DispatchGroup()

    init() {
        pending.enter()
    }

    /// Says the write is done; called once, by the writer queue.
    func land() {
        pending.leave()
    }

    /// Runs `body` once the write has landed (at once, on another thread, if it has already).
    package func whenLanded(_ body: @escaping @Sendable () -> Void) {
        pending.notify(queue: .global(), execute: body)
    }

    /// Runs `body` once, on another thread: when the write has landed, or after `bound` if it has not by then
    /// (a disk that does not answer must not hold back what follows the write for ever).
    package func whenLanded(orAfter bound: DispatchTimeInterval, _ body: @escaping @Sendable () -> Void) {
        let ran = LockedValue(false)
        let once: @Sendable () -> Void = { if ran.claim() { body() } }
        pending.notify(queue: .global(), execute: once)
        DispatchQueue.global().asyncAfter(deadline: .now() + bound, execute: once)
    }

    /// Waits until the write has landed, at most `bound`; whether it did.
    @discardableResult
    package func wait(atMost bound: DispatchTimeInterval) -> Bool {
        pending.wait(timeout: .now() + bound) == .success
    }

    /// Whether the write has landed.
    package var hasLanded: Bool {
        pending.wait(timeout: .now()) == .success
    }
}
