import LifetraceConcurrency

/// The lock a recorder holds on the trace file it writes, from its creation until it closes (or is let go), so
/// that a recorder of another process pruning the same directory (services sharing one, a Mac's Application
/// Support) leaves the file alone (``TraceDirectory/prune(_:base:keeping:within:)``). Advisory and best-effort: a
/// file system without locks leaves the file unlocked, and a crash releases it, as it should. None is taken on
/// Apple's device platforms (``SystemInterface/holdsFileLocks``), where a suspended app holding a lock is killed.
final class TraceFileLock: Sendable {
    private let descriptor: LockedValue<Int32>

    /// Locks the file at `path`.
    init(path: String) {
        descriptor = LockedValue(SystemInterface.lockWhileWriting(path))
    }

    /// Whether the lock is held.
    var isHeld: Bool { descriptor.withLock { $0 >= 0 } }

    /// Releases the lock; later calls do nothing.
    func release() {
        descriptor.withLock { descriptor in
            SystemInterface.releaseLock(descriptor)
            descriptor = -1
        }
    }

    deinit {
        release()
    }
}
