import Foundation
import LifetraceConcurrency

/// Work that must finish before the app may be suspended.
enum BackgroundActivity {
    /// How long the caller waits at most for the system to start the activity before doing the work itself.
    static let startTimeout: DispatchTimeInterval = .seconds(1)

    /// Runs `body` before returning. On iOS, iPadOS, tvOS, watchOS and visionOS it runs under
    /// `ProcessInfo.performExpiringActivity(withReason:using:)` (Apple, "performExpiringActivity(withReason:using:)"),
    /// which keeps the process from being suspended until it returns and needs neither UIKit nor an app (it
    /// works in app extensions); elsewhere, where no process is suspended under it, it simply runs `body`.
    static func run(reason: String, _ body: @escaping @Sendable () -> Void) {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        let started = LockedValue(false)
        let done = DispatchSemaphore(value: 0)
        // The system calls the block once, with `expired` false while it holds the assertion (true if it could
        // not take one), and may call it again with `true` while the first call runs: only the first call works.
        ProcessInfo.processInfo.performExpiringActivity(withReason: reason) { _ in
            guard claim(started) else { return }
            body()
            done.signal()
        }
        if done.wait(timeout: .now() + startTimeout) == .success { return }
        // The system did not start the block in time: do the work here, unless the block has just begun it.
        if claim(started) {
            body()
        } else {
            done.wait()
        }
        #else
        body()
        #endif
    }

    /// Whether this call is the first to claim the work.
    private static func claim(_ started: LockedValue<Bool>) -> Bool {
        started.withLock { started in
            defer { started = true }
            return !started
        }
    }
}
