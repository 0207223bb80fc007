import Foundation
public import LifetraceCore

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

    package init(applicationSnapshot: @escaping @Sendable (TraceHeader.Lifecycle) -> ApplicationSnapshot?,
                 thermalState: @escaping @Sendable () -> Int?,
                 connectionOptionsReason: @escaping @Sendable (AnyObject) -> String? = { _ in nil }) {
        self.applicationSnapshot = applicationSnapshot
        self.thermalState = thermalState
        self.connectionOptionsReason = connectionOptionsReason
    }

    /// The running system's.
    package static let system: SystemProbes = {
        #if canImport(ObjectiveC)
        SystemProbes(applicationSnapshot: { ApplicationStateReader.read($0) },
                     thermalState: { ProcessInfo.processInfo.thermalState.rawValue },
                     connectionOptionsReason: { ConnectionOptionsReader.launchReason($0) })
        #else
        SystemProbes(applicationSnapshot: { _ in nil }, thermalState: { nil })
        #endif
    }()
}

extension TraceHeader.Lifecycle {
    /// The lifecycle of the running process: an app extension's if the main bundle is one (`.appex`), else
    /// the platform's (UIKit on iOS, iPadOS, tvOS, visionOS and Mac Catalyst, WatchKit on watchOS, AppKit on
    /// macOS); `nil` where there is none (Linux).
    public static let current: TraceHeader.Lifecycle? = detect(bundlePath: Bundle.main.bundlePath)

    /// The lifecycle of a process whose main bundle is at `bundlePath`, on this platform.
    static func detect(bundlePath: String) -> TraceHeader.Lifecycle? {
        #if os(iOS) || os(tvOS) || os(visionOS) || os(watchOS) || os(macOS)
        if bundlePath.hasSuffix(".appex") || bundlePath.hasSuffix(".appex/") { return .appExtension }
        #endif
        #if os(watchOS)
        return .watchkit
        #elseif os(macOS) && !targetEnvironment(macCatalyst)
        return .appkit
        #elseif os(iOS) || os(tvOS) || os(visionOS)
        return .uikit
        #else
        return nil
        #endif
    }
}
