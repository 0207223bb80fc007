import Foundation
import LifetraceCore
import LifetraceRecorder

/// A lifecycle played through the notifications UIKit posts (Apple, "Managing your app's life cycle").
enum Scenario: String {
    case legal, illegal, overrun

    static let scene = "3F2504E0-4F89-41D3-9A0C-0305E82C3301"

    func run(recorder: Recorder, say: (String) -> Void) {
        launch(say)
        switch self {
        case .legal:
            toBackground(say)
            pause(0.3)
            toForeground(say)
            pause(0.3)
        case .illegal:
            toBackground(say)
            pause(0.3)
            // Back to active with no sceneWillEnterForeground: the violation.
            say(
                "posting UISceneDidActivateNotification from the background (no UISceneWillEnterForegroundNotification)"
            )
            post("UISceneDidActivateNotification", Self.scene)
            post("UIApplicationDidBecomeActiveNotification")
            // Two seconds of ordinary life after it: a phone call, twice.
            for _ in 0..<2 {
                pause(0.7)
                say("a phone call: inactive and back")
                post("UISceneWillDeactivateNotification", Self.scene)
                post("UIApplicationWillResignActiveNotification")
                pause(0.3)
                post("UISceneDidActivateNotification", Self.scene)
                post("UIApplicationDidBecomeActiveNotification")
            }
        case .overrun:
            post("UISceneWillDeactivateNotification", Self.scene)
            post("UIApplicationWillResignActiveNotification")
            say("sceneDidEnterBackground handler begins; it blocks for 7 s")
            recorder.measure(.sceneDidEnterBackground, scene: Self.scene) {
                Thread.sleep(forTimeInterval: 7)
            }
            say("sceneDidEnterBackground handler returned")
            post("UIApplicationDidEnterBackgroundNotification")
        }
    }

    private func launch(_ say: (String) -> Void) {
        say("launch: the app finishes launching, its scene connects and becomes active")
        post("UIApplicationDidFinishLaunchingNotification")
        post("UISceneWillConnectNotification", Self.scene)
        post("UISceneWillEnterForegroundNotification", Self.scene)
        post("UISceneDidActivateNotification", Self.scene)
        post("UIApplicationDidBecomeActiveNotification")
    }

    private func toBackground(_ say: (String) -> Void) {
        say("to the background")
        post("UISceneWillDeactivateNotification", Self.scene)
        post("UIApplicationWillResignActiveNotification")
        post("UISceneDidEnterBackgroundNotification", Self.scene)
        post("UIApplicationDidEnterBackgroundNotification")
    }

    private func toForeground(_ say: (String) -> Void) {
        say("back to the foreground")
        post("UISceneWillEnterForegroundNotification", Self.scene)
        post("UIApplicationWillEnterForegroundNotification")
        post("UISceneDidActivateNotification", Self.scene)
        post("UIApplicationDidBecomeActiveNotification")
    }

    private func post(_ name: String, _ object: Any? = nil) {
        NotificationCenter.default.post(name: Notification.Name(name), object: object)
        Thread.sleep(forTimeInterval: 0.002)
    }

    private func pause(_ seconds: Double) {
        Thread.sleep(forTimeInterval: seconds)
    }
}
