import LifetraceCore

/// What a line of the app's own process says about its lifecycle, read by the parser of each kind of line:
/// ``AppCrashLine``, ``BackgroundTaskLine``, ``DeactivationLine``, ``UIKitTaskLine``, ``LifetraceLogLine``,
/// ``MacAppLine`` and ``AppPrintLine``. ``LifecycleStateMachine`` consumes them.
enum AppObservation: Sendable, Equatable {
    /// The app crashed, for this exit reason (`uncaught-exception`, `abort`).
    case crashed(reason: String)
    /// A BGTaskScheduler task's line.
    case scheduledTask(BackgroundTaskLine.Observation)
    /// A deactivation-reason line; `nil` if it does not parse.
    case deactivation(DeactivationLine?)
    /// A background task's line (`beginBackgroundTask`, `endBackgroundTask`).
    case backgroundTask(UIKitTaskLine.Observation)
    /// The app's own `lifetrace ev=...` line, the event it states (its time not set); `nil` if it does not parse.
    case ownEvent(LifecycleEvent?)
    /// A macOS app's front-most change (LaunchServices) or its `isActive` (AppKit).
    case mac(MacAppLine)
    /// The app printed one of its callbacks' names itself (``AppPrintLine``): the callback's event.
    case printedCallback(EventKind)
    /// UIKit's `Received memory warning.`, logged in the app's process as it passes the system's memory warning
    /// on to the app.
    case memoryWarning

    /// UIKit's line as the app receives a memory warning.
    static let memoryWarningLine = "Received memory warning."

    /// What `message`, a line of the app's process, says; `nil` if nothing lifecycle-related.
    static func observe(_ message: String) -> AppObservation? {
        if let reason = AppCrashLine.reason(message) { return .crashed(reason: reason) }
        if let observation = BackgroundTaskLine.observe(message) { return .scheduledTask(observation) }
        if DeactivationLine.isDeactivation(message) { return .deactivation(DeactivationLine.parse(message)) }
        if let observation = UIKitTaskLine.observe(message) { return .backgroundTask(observation) }
        if message.hasPrefix("lifetrace ") { return .ownEvent(LifetraceLogLine.parse(message)) }
        if let line = MacAppLine.observe(message) { return .mac(line) }
        if let kind = AppPrintLine.callback(message) { return .printedCallback(kind) }
        if message == memoryWarningLine { return .memoryWarning }
        return nil
    }
}
