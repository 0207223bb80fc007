import Foundation
import LifetraceRecorder

/// An app's life as UIKit's notifications tell it, recorded into a trace by the recorder an app starts.
public enum LifecycleApp {
    /// Launches, becomes active, then goes to the background: resigning active first unless `skipResign`,
    /// the mistake `lifetrace check` reports as LT003. Returns the trace.
    public static func run(into file: URL, skipResign: Bool = false) throws -> URL {
        let center = NotificationCenter()
        var options = RecordingOptions(
            destination: .file(file), app: "com.example.client", sceneManifest: true,
            lifecycle: .uikit, notificationCenter: center)
        options.configuration.flushInterval = .milliseconds(100)
        let recorder = try Recorder.start(options)
        recorder.mark("launched")
        func post(_ name: String, _ scene: String? = nil) {
            center.post(name: Notification.Name(name), object: scene)
        }
        post("UIApplicationDidFinishLaunchingNotification")
        post("UISceneWillConnectNotification", "S1")
        post("UISceneWillEnterForegroundNotification", "S1")
        post("UISceneDidActivateNotification", "S1")
        post("UIApplicationDidBecomeActiveNotification")
        if !skipResign {
            post("UISceneWillDeactivateNotification", "S1")
            post("UIApplicationWillResignActiveNotification")
        }
        post("UISceneDidEnterBackgroundNotification", "S1")
        post("UIApplicationDidEnterBackgroundNotification")
        let written = recorder.file ?? file
        try Recorder.stop()
        return written
    }
}
