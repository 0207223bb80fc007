import Foundation
package import LifetraceCore

/// What the recorder reads of the running system besides clocks: the application's state at start and the
/// thermal state. The system's by default; tests give their own, as the notifications they post stand in
/// for the UI framework's.
package struct SystemProbes: Sendable {
    /// The application's and its scenes' states, for a lifecycle; `nil` where they cannot be read.
    package var applicationSnapshot: @Sendable (TraceHeader.Lifecycle) -> ApplicationSnapshot?
    /// `ProcessInfo.thermalState`'s raw value (0 nominal to 3 critical), where the platform has one.
    package var thermalState: @Sendable () -> Int?
    /// The launch reason `UIScene.ConnectionOptions` show (see ``LaunchReason/connectionOptions(_:)``).
    package var connectionOptionsReason: @Sendable (AnyObject) -> String?
    /// Holds off the process's suspension until a queued write lands, returning at once; `nil` is the system's
    /// (``BackgroundActivity/hold(reason:until:)``). Tests give one that records what was held, and for how long.
    package var holdSuspension: (@Sendable (_ reason: String, _ write: QueuedWrite) -> Void)?
    /// Called on the thread that creates a recorder's trace file, just before it does; `nil` calls nothing. Tests
    /// stall it, to show which thread creates the file and that nothing waits for it.
    package var fileCreation: (@Sendable () -> Void)?

    package init(
        applicationSnapshot: @escaping @Sendable (TraceHeader.Lifecycle) -> ApplicationSnapshot?,
        thermalState: @escaping @Sendable () -> Int?,
        connectionOptionsReason: @escaping @Sendable (AnyObject) -> String? = { _ in nil },
        holdSuspension: (@Sendable (_ reason: String, _ write: QueuedWrite) -> Void)? = nil,
        fileCreation: (@Sendable () -> Void)? = nil
    ) {
        self.applicationSnapshot = applicationSnapshot
        self.thermalState = thermalState
        self.connectionOptionsReason = connectionOptionsReason
        self.holdSuspension = holdSuspension
        self.fileCreation = fileCreation
    }

    /// The running system's.
    package static let system: SystemProbes = {
        #if canImport(ObjectiveC)
        SystemProbes(
            applicationSnapshot: { ApplicationStateReader.read($0) },
            thermalState: { ProcessInfo.processInfo.thermalState.rawValue },
            connectionOptionsReason: { ConnectionOptionsReader.launchReason($0) })
        #else
        SystemProbes(applicationSnapshot: { _ in nil }, thermalState: { nil })
        #endif
    }()
}
