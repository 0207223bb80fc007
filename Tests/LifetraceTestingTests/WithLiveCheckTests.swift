import Foundation
import LifetraceCore
import LifetraceRecorder
import LifetraceTestSupport
import LifetraceTesting
import Testing

/// `withLiveCheck` fails the running test through Swift Testing on an illegal sequence, with the rule's id and
/// message, and lets a legal one pass.
@Suite struct WithLiveCheckTests {
    let directory = TemporaryDirectory()

    /// A scene-based app's recorder, capturing the notifications UIKit posts to `center`.
    func recorder(_ center: NotificationCenter) throws -> Recorder {
        let recorder = try Recorder(
            file: URL(fileURLWithPath: directory.file("app.lifetrace")), app: "com.example.app",
            sceneManifest: true, lifecycle: .uikit)
        try recorder.captureLifecycle(from: center)
        return recorder
    }

    static func post(_ center: NotificationCenter, _ names: [String]) {
        for name in names {
            center.post(name: Notification.Name(name), object: name.hasPrefix("UIScene") ? "S1" : nil)
        }
    }

    static let launchAndBackground = [
        "UIApplicationDidFinishLaunchingNotification", "UISceneWillConnectNotification",
        "UISceneWillEnterForegroundNotification", "UISceneDidActivateNotification",
        "UIApplicationDidBecomeActiveNotification",
        "UISceneWillDeactivateNotification", "UIApplicationWillResignActiveNotification",
        "UISceneDidEnterBackgroundNotification", "UIApplicationDidEnterBackgroundNotification",
    ]

    @Test func aLegalSequencePasses() throws {
        let center = NotificationCenter()
        let recorder = try recorder(center)
        withLiveCheck(recorder: recorder) {
            Self.post(
                center,
                Self.launchAndBackground + [
                    "UISceneWillEnterForegroundNotification", "UIApplicationWillEnterForegroundNotification",
                    "UISceneDidActivateNotification", "UIApplicationDidBecomeActiveNotification",
                ])
        }
        try recorder.close()
    }

    @Test func anIllegalSequenceFailsTheTestWithTheRulesMessage() throws {
        let center = NotificationCenter()
        let recorder = try recorder(center)
        // The expected failure: active again from the background, with no willEnterForeground.
        withKnownIssue {
            withLiveCheck(recorder: recorder) {
                Self.post(
                    center,
                    Self.launchAndBackground + [
                        "UISceneDidActivateNotification", "UIApplicationDidBecomeActiveNotification",
                    ])
            }
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined(separator: "\n")
            return text.contains("lifecycle rule LT0") && text.contains("scene.didBecomeActive")
        }
        try recorder.close()
    }
}
