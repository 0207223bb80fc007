import Foundation
import LifetraceAnalysis
import LifetraceCore
import LifetraceTestSupport
import Testing

@testable import LifetraceRecorder

/// The capture turns the notifications UIKit posts into the trace `lifetrace check` judges. The sequences are
/// the ones Apple's "Managing your app's life cycle" and the seeds' walkthroughs describe; names are posted as
/// UIKit posts them, on a private centre.
@Suite struct LifecycleCaptureTests {
    let directory = TemporaryDirectory()
    static let scene = "S1"

    /// A lifecycle as notifications: a name, and the scene for a scene notification.
    struct Sequence: CustomStringConvertible, Sendable {
        var description: String
        var sceneManifest: Bool
        var posts: [(LifecycleNotification, String?)]
    }

    static let launch: [(LifecycleNotification, String?)] = [
        (.applicationDidFinishLaunching, nil), (.sceneWillConnect, scene), (.sceneWillEnterForeground, scene),
        (.sceneDidActivate, scene), (.applicationDidBecomeActive, nil),
    ]
    static let toBackground: [(LifecycleNotification, String?)] = [
        (.sceneWillDeactivate, scene), (.applicationWillResignActive, nil), (.sceneDidEnterBackground, scene),
        (.applicationDidEnterBackground, nil),
    ]
    static let toForeground: [(LifecycleNotification, String?)] = [
        (.sceneWillEnterForeground, scene), (.applicationWillEnterForeground, nil), (.sceneDidActivate, scene),
        (.applicationDidBecomeActive, nil),
    ]

    static let legalSequences: [Sequence] = [
        // Apple, “Managing your app’s life cycle”: didFinishLaunching, willConnectTo, willEnterForeground, didBecomeActive.
        Sequence(description: "cold launch", sceneManifest: true, posts: launch),
        // Apple, “Managing your app’s life cycle”: a phone call makes the app inactive and active again, no background step.
        Sequence(
            description: "phone call", sceneManifest: true,
            posts: launch + [
                (.sceneWillDeactivate, scene), (.applicationWillResignActive, nil),
                (.sceneDidActivate, scene), (.applicationDidBecomeActive, nil),
            ]),
        // Apple, “Managing your app’s life cycle” and the return to the foreground.
        Sequence(
            description: "background and return", sceneManifest: true, posts: launch + toBackground + toForeground),
        // applicationWillTerminate comes only while running in the background (Apple, “Managing your app’s life cycle”).
        Sequence(
            description: "terminated from the background", sceneManifest: true,
            posts: launch + toBackground + [(.applicationWillTerminate, nil)]),
        // The system disconnects a scene in the background; that is not termination (sceneDidDisconnect(_:)).
        Sequence(
            description: "disconnected in the background, reconnected", sceneManifest: true,
            posts: launch + toBackground + [
                (.sceneDidDisconnect, scene), (.sceneWillConnect, scene),
                (.sceneWillEnterForeground, scene), (.sceneDidActivate, scene),
            ]),
        // Without a scene manifest the app delegate drives the one window (Apple, “About the background execution sequence”).
        Sequence(
            description: "app delegate only: launch, background, return", sceneManifest: false,
            posts: [
                (.applicationDidFinishLaunching, nil), (.applicationDidBecomeActive, nil),
                (.applicationWillResignActive, nil), (.applicationDidEnterBackground, nil),
                (.applicationWillEnterForeground, nil), (.applicationDidBecomeActive, nil),
            ]),
    ]

    func capture(_ sequence: Sequence, name: String) throws -> String {
        let path = directory.file("\(name).lifetrace")
        let center = NotificationCenter()
        let recorder = try Recorder(
            file: URL(fileURLWithPath: path), app: "com.example.app", sceneManifest: sequence.sceneManifest)
        let capture = try recorder.captureLifecycle(from: center)
        for (notification, scene) in sequence.posts {
            center.post(name: Notification.Name(notification.rawValue), object: scene)
        }
        capture.stop()
        center.post(name: Notification.Name(LifecycleNotification.sceneWillConnect.rawValue), object: "after-stop")
        try recorder.close()
        return path
    }

    @Test(arguments: legalSequences)
    func aCapturedLegalSequenceChecksClean(sequence: Sequence) throws {
        let path = try capture(sequence, name: "legal")
        let (header, events) = try RecorderTraces.read(path)
        #expect(header?.captureMethod == .notifications)
        #expect(events.first?.kind == .processLaunch)
        #expect(Array(events.dropFirst().map(\.kind)) == sequence.posts.map(\.0.eventKind))
        #expect(Array(events.dropFirst().map(\.scene)) == sequence.posts.map(\.1))
        #expect(events.allSatisfy { $0.dur == nil })
        #expect(try RecorderTraces.errors(path) == [])
    }

    /// Apple, “Managing your app’s life cycle”: sceneWillResignActive comes before sceneDidEnterBackground. Skipping it is LT003, which
    /// `lifetrace check` reports as an error (exit 1).
    @Test func backgroundWithoutDeactivatingIsLT003() throws {
        let sequence = Sequence(
            description: "no deactivate", sceneManifest: true,
            posts: Self.launch + [(.sceneDidEnterBackground, Self.scene)])
        #expect(try RecorderTraces.errors(try capture(sequence, name: "lt003")) == ["LT003"])
    }

    /// The launch options' keys tell why the app launched; none tells nothing.
    @Test func theLaunchOptionsGiveTheLaunchReason() throws {
        let path = directory.file("push.lifetrace")
        let center = NotificationCenter()
        let recorder = try Recorder(file: URL(fileURLWithPath: path))
        let capture = try recorder.captureLifecycle(from: center)
        center.post(
            name: Notification.Name("UIApplicationDidFinishLaunchingNotification"), object: nil,
            userInfo: ["UIApplicationLaunchOptionsRemoteNotificationKey": ["aps": 1]])
        capture.stop()
        try recorder.close()
        let (_, events) = try RecorderTraces.read(path)
        #expect(events.map(\.kind) == [.processLaunch, .appDidFinishLaunching])
        #expect(events[1].reason == "push")
        #expect(LaunchReason.launchOptions(keys: []) == nil)
        #expect(LaunchReason.launchOptions(keys: ["UIApplicationLaunchOptionsLocationKey"]) == "location")
    }

    /// A string object is the scene's identifier; any other object gets one of its own, stable until the scene
    /// disconnects.
    @Test func scenesAreNamedByTheirObject() {
        final class FakeScene {}
        let scenes = SceneIdentifiers()
        let first = FakeScene()
        let second = FakeScene()
        #expect(scenes.identifier(of: "ABC-123", disconnecting: false) == "ABC-123")
        #expect(scenes.identifier(of: first, disconnecting: false) == "scene-1")
        #expect(scenes.identifier(of: second, disconnecting: false) == "scene-2")
        #expect(scenes.identifier(of: first, disconnecting: false) == "scene-1")
        #expect(scenes.identifier(of: first, disconnecting: true) == "scene-1")
        #expect(scenes.identifier(of: first, disconnecting: false) == "scene-3")
    }

    /// The process says whether iOS prewarmed it, from `ActivePrewarm` (present until didFinishLaunching).
    @Test func prewarmIsReadFromTheEnvironment() {
        #expect(ProcessLaunch { $0 == "ActivePrewarm" ? "1" : nil }.prewarmed)
        #expect(!ProcessLaunch { $0 == "ActivePrewarm" ? "0" : nil }.prewarmed)
        #expect(!ProcessLaunch { _ in nil }.prewarmed)
    }
}
