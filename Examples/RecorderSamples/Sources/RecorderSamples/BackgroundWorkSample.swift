#if canImport(UIKit) && !os(watchOS)
import LifetraceRecorder
import UIKit

/// Work that must finish when the app goes to the background.
@MainActor
final class UploadSample {
    func cancel() {}
    func start(completion: @escaping @Sendable () -> Void) { completion() }

    func uploadInTheBackground() {
        guard let recorder = Recorder.shared else { return }
        // README: background-task
        let application = UIApplication.shared  // read on the main actor; endBackgroundTask is nonisolated
        let task = recorder.beginBackgroundTask(
            name: "upload",
            begin: { name, expire in
                application.beginBackgroundTask(withName: name, expirationHandler: expire).rawValue
            },
            // At once, on whatever thread ends the task: the expiration handler's (the main thread, before it
            // returns, as UIKit asks) or the recorder's, once task.end is written.
            end: { application.endBackgroundTask(UIBackgroundTaskIdentifier(rawValue: $0)) },
            // UIKit calls the expiration handler on the main thread: the work stops before the task ends.
            onExpiration: { [weak self] in MainActor.assumeIsolated { self?.cancel() } })  // task.expire, task.end
        start { task.end() }  // task.end, once
        // README: end
    }
}
#endif

#if canImport(BackgroundTasks) && !os(watchOS) && !os(macOS)
import BackgroundTasks

enum RefreshSample {
    static func register() {
        // README: refresh-task
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { bgTask in
            guard let recorder = Recorder.shared else { return bgTask.setTaskCompleted(success: false) }
            let run = recorder.beginScheduledTask(
                .appRefresh, identifier: bgTask.identifier,
                setExpirationHandler: { bgTask.expirationHandler = $0 },
                setTaskCompleted: { bgTask.setTaskCompleted(success: $0) })
            run.setTaskCompleted(success: true)  // bg.refresh.end with success, when the refresh is done
        }
        // README: end
    }
}
#endif
