// Plays a scene-based app's life through the notifications UIKit posts, recorded by the one-line start an app
// uses: cold launch, a phone call, backgrounding with a background task, return, backgrounding, and a
// scheduled refresh task. Run it with LIFETRACE_PATH set (and LIFETRACE_MIRROR=stderr for the log lines);
// with RECORDER_CLIENT_HANG set, the second didEnterBackground handler never returns; with
// RECORDER_CLIENT_KILL set, the process kills itself (SIGKILL) shortly after the first
// UIApplicationDidEnterBackgroundNotification is posted, as iOS may kill a suspended app.
import Foundation
import LifetraceRecorder

guard let recorder = Recorder.fromEnvironment(app: "com.example.client", sceneManifest: true) else {
    FileHandle.standardError.write(Data("RecorderClient: set LIFETRACE_PATH to record\n".utf8))
    exit(2)
}

let center = NotificationCenter.default
func post(_ name: String, _ object: Any? = nil, pause: useconds_t = 2_000) {
    center.post(name: Notification.Name(name), object: object)
    usleep(pause)
}

let scene = "3F2504E0-4F89-41D3-9A0C-0305E82C3301"
// Cold launch (Apple, "Managing your app's life cycle"): the app finishes launching, its scene connects,
// enters the foreground and becomes active.
post("UIApplicationDidFinishLaunchingNotification")
post("UISceneWillConnectNotification", scene)
post("UISceneWillEnterForegroundNotification", scene)
post("UISceneDidActivateNotification", scene)
post("UIApplicationDidBecomeActiveNotification")
// A phone call: inactive and back, no background step.
post("UISceneWillDeactivateNotification", scene)
post("UIApplicationWillResignActiveNotification")
post("UISceneDidActivateNotification", scene)
post("UIApplicationDidBecomeActiveNotification")
// Backgrounding, with a background task begun in the foreground that ends in the background.
let task = recorder.beginBackgroundTask(name: "upload", begin: { _, _ in 7 }, end: { _ in })
post("UISceneWillDeactivateNotification", scene)
post("UIApplicationWillResignActiveNotification")
post("UISceneDidEnterBackgroundNotification", scene)
post("UIApplicationDidEnterBackgroundNotification")
if ProcessInfo.processInfo.environment["RECORDER_CLIENT_KILL"] != nil {
    // The observers queued their writes and returned; iOS suspends the app once the background-time hold they
    // took ends, when those writes have landed, and may kill it then. Those writes take microseconds: 50 ms on,
    // long before the recorder's timer would flush (a second), only the observers' own writes can have saved
    // the events.
    usleep(50_000)
    kill(getpid(), SIGKILL)
}
task.end()
// Return to the foreground.
post("UISceneWillEnterForegroundNotification", scene)
post("UIApplicationWillEnterForegroundNotification")
post("UISceneDidActivateNotification", scene)
post("UIApplicationDidBecomeActiveNotification")
// Backgrounding again; the system launches a refresh task, which completes.
post("UISceneWillDeactivateNotification", scene)
post("UIApplicationWillResignActiveNotification")
if ProcessInfo.processInfo.environment["RECORDER_CLIENT_HANG"] != nil {
    // The scene's didEnterBackground handler never returns, so the notification that follows it is never
    // posted, and the system would kill the app: whatever kills this process, the trace holds everything up to
    // the last flush, this callback among it, begun and not ended.
    recorder.measure(.sceneDidEnterBackground, scene: scene) {
        while true { sleep(60) }
    }
}
post("UISceneDidEnterBackgroundNotification", scene)
post("UIApplicationDidEnterBackgroundNotification")
let refresh = recorder.beginScheduledTask(
    .appRefresh, identifier: "com.example.client.refresh",
    setExpirationHandler: { _ in }, setTaskCompleted: { _ in })
refresh.setTaskCompleted(success: true)
do {
    try Recorder.stop()
} catch {
    FileHandle.standardError.write(Data("RecorderClient: \(error)\n".utf8))
    exit(1)
}
