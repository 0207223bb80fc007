/// The lines BackgroundTasks' `BGTaskScheduler` logs in the app's process when a task is run through the
/// debugger (`e -l objc -- (void)[[BGTaskScheduler sharedScheduler] _simulateLaunchForTaskWithIdentifier:@"ID"]`):
///
/// ```text
/// Simulating launch for task with identifier com.example.bgRefresh
/// Starting simulated task: <decode: missing data>
/// Marking simulated task complete: <BGAppRefreshTask: com.example.bgRefresh>
/// ```
///
/// The task's description (`<BGAppRefreshTask: ID>`, `<BGProcessingTask: ID>`) says its kind; the log may
/// fail to keep it (`<decode: missing data>`).
enum BackgroundTaskLine {
    enum Kind: Sendable, Equatable {
        case refresh, processing
    }

    enum Observation: Sendable, Equatable {
        /// The debugger asked for the task with this identifier to be launched.
        case simulating(identifier: String)
        /// The task started; its kind and identifier where the description was kept.
        case started(kind: Kind?, identifier: String?)
        /// The task completed.
        case completed(kind: Kind?, identifier: String?)
    }

    static func observe(_ message: String) -> Observation? {
        // Every line of the app passes here: its first byte decides.
        guard let first = message.utf8.first, first == UInt8(ascii: "S") || first == UInt8(ascii: "M") else {
            return nil
        }
        if message.hasPrefix("Simulating launch for task with identifier ") {
            let identifier = message.dropFirst("Simulating launch for task with identifier ".count).prefix { $0 != " " }
            return identifier.isEmpty ? nil : .simulating(identifier: String(identifier))
        }
        if message.hasPrefix("Starting simulated task: ") {
            let task = description(message.dropFirst("Starting simulated task: ".count))
            return .started(kind: task.kind, identifier: task.identifier)
        }
        if message.hasPrefix("Marking simulated task complete: ") {
            let task = description(message.dropFirst("Marking simulated task complete: ".count))
            return .completed(kind: task.kind, identifier: task.identifier)
        }
        return nil
    }

    /// `<BGAppRefreshTask: ID>` / `<BGProcessingTask: ID>`: the kind and the identifier.
    static func description(_ text: Substring) -> (kind: Kind?, identifier: String?) {
        let kind: Kind
        if text.hasPrefix("<BGAppRefreshTask: ") {
            kind = .refresh
        } else if text.hasPrefix("<BGProcessingTask: ") {
            kind = .processing
        } else {
            return (nil, nil)
        }
        let identifier = text.drop { $0 != " " }.dropFirst().prefix { $0 != ">" }
        return (kind, identifier.isEmpty ? nil : String(identifier))
    }
}
