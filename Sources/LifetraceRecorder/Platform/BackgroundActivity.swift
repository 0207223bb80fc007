import Dispatch
import Foundation

/// Holding off the app's suspension while a write of the trace is on its way to the file.
enum BackgroundActivity {
    /// Asks the system not to suspend the process until `write` lands (or the system takes the time back), and
    /// returns at once: the caller, a notification's observer on the main thread, never waits for the write.
    ///
    /// On iOS, iPadOS, tvOS, watchOS and visionOS the hold is `ProcessInfo.performExpiringActivity(withReason:using:)`
    /// (Apple, "performExpiringActivity(withReason:using:)"), which runs its block asynchronously on a thread of
    /// its own and keeps the process from being suspended until the block returns; it needs neither UIKit nor an
    /// app, so it works in app extensions. The block waits there, off the main thread, for the write to land.
    /// The system calls the block with `expired` false while it holds the assertion, and calls it again with
    /// `true` when it takes the time back (or at once, if it could not take any): that call releases the first,
    /// which returns as the documentation asks. Elsewhere no process is suspended under the recorder, and
    /// nothing is held.
    static func hold(reason: String, until write: QueuedWrite) {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        let release = DispatchSemaphore(value: 0)
        write.whenLanded { release.signal() }
        ProcessInfo.processInfo.performExpiringActivity(withReason: reason) { expired in
            if expired {
                release.signal()
                return
            }
            release.wait()
        }
        #endif
    }
}
