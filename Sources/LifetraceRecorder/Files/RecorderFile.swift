import Foundation
import LifetraceConcurrency

/// The trace file a recorder writes, and the lock it holds on it (``TraceFileLock``): known from the start for a
/// recorder made with an initializer, which creates its file at once; known once the writer queue has made it for
/// one ``Recorder/start(_:)`` made, which leaves the file to that queue.
final class RecorderFile: Sendable {
    private let created: LockedValue<(url: URL, lock: TraceFileLock)?>

    /// A file created already.
    init(url: URL, lock: TraceFileLock) {
        created = LockedValue((url, lock))
    }

    /// A file the writer queue will create (``made(url:lock:)``).
    init() {
        created = LockedValue(nil)
    }

    /// The file's URL, once it is created.
    var url: URL? { created.withLock { $0?.url } }

    /// Whether the file is created and its lock held.
    var isLockHeld: Bool { created.withLock { $0?.lock.isHeld ?? false } }

    /// Says the file was created at `url`, locked with `lock`.
    func made(url: URL, lock: TraceFileLock) {
        created.withLock { $0 = (url, lock) }
    }

    /// Releases the file's lock, if it was created: another launch may prune it from now on.
    func releaseLock() {
        created.withLock { $0?.lock }?.release()
    }
}
