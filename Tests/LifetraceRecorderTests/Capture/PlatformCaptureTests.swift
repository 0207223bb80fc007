import Foundation
import LifetraceAnalysis
import LifetraceCore
import LifetraceTestSupport
import Testing

@testable import LifetraceRecorder

/// WatchKit's, AppKit's and app extensions' notifications, posted by the names their frameworks post them
/// under, make traces that `check` judges by each lifecycle's own model: legal sequences written from Apple's
/// documentation check clean, illegal ones fail.
@Suite struct PlatformCaptureTests {
    let directory = TemporaryDirectory()

    struct Case: CustomStringConvertible, Sendable {
        var description: String
        var lifecycle: TraceHeader.Lifecycle
        var posts: [String]
        /// The error rules `check` reports; empty for a legal sequence.
        var errors: [String]
    }

    static let cases: [Case] = [
        // "Working with the watchOS app life cycle": launch, active, inactive, background, and back.
        Case(
            description: "watchOS: launch, wrist down, wrist up", lifecycle: .watchkit,
            posts: [
                "WKApplicationDidFinishLaunchingNotification", "WKApplicationDidBecomeActiveNotification",
                "WKApplicationWillResignActiveNotification", "WKApplicationDidEnterBackgroundNotification",
                "WKApplicationWillEnterForegroundNotification", "WKApplicationDidBecomeActiveNotification",
            ], errors: []),
        // Entering the background straight from active skips willResignActive.
        Case(
            description: "watchOS: background while active", lifecycle: .watchkit,
            posts: [
                "WKApplicationDidFinishLaunchingNotification", "WKApplicationDidBecomeActiveNotification",
                "WKApplicationDidEnterBackgroundNotification",
            ], errors: ["LT003"]),
        // NSApplication: launched, active, another app comes forward, back, hidden, shown, quit.
        Case(
            description: "macOS: launch, switch away and back, hide, quit", lifecycle: .appkit,
            posts: [
                "NSApplicationDidFinishLaunchingNotification", "NSApplicationDidBecomeActiveNotification",
                "NSApplicationWillResignActiveNotification", "NSApplicationDidBecomeActiveNotification",
                "NSApplicationWillResignActiveNotification", "NSApplicationDidHideNotification",
                "NSApplicationDidUnhideNotification", "NSApplicationDidBecomeActiveNotification",
                "NSApplicationWillTerminateNotification",
            ], errors: []),
        // Becoming active twice without resigning in between.
        Case(
            description: "macOS: active twice", lifecycle: .appkit,
            posts: [
                "NSApplicationDidFinishLaunchingNotification", "NSApplicationDidBecomeActiveNotification",
                "NSApplicationDidBecomeActiveNotification",
            ], errors: ["LT001"]),
        // NSExtensionContext: the host resigns, goes to the background, comes back.
        Case(
            description: "extension: host to the background and back", lifecycle: .appExtension,
            posts: [
                "NSExtensionHostWillResignActiveNotification", "NSExtensionHostDidEnterBackgroundNotification",
                "NSExtensionHostWillEnterForegroundNotification", "NSExtensionHostDidBecomeActiveNotification",
            ], errors: []),
        // The host entering the background while active skips willResignActive.
        Case(
            description: "extension: host to the background while active", lifecycle: .appExtension,
            posts: [
                "NSExtensionHostDidEnterBackgroundNotification"
            ], errors: ["LT003"]),
    ]

    @Test(arguments: cases)
    func eachLifecycleIsJudgedByItsOwnModel(sequence: Case) throws {
        let center = NotificationCenter()
        let path = directory.file("platform.lifetrace")
        let recorder = try Recorder(
            destination: .file(URL(fileURLWithPath: path)), app: "com.example.app",
            sceneManifest: nil, metadata: [:], clock: .continuous, lifecycle: sequence.lifecycle,
            capture: nil, configuration: .init(),
            probes: SystemProbes(applicationSnapshot: { _ in nil }, thermalState: { nil }))
        try recorder.captureLifecycle(from: center)
        for name in sequence.posts { center.post(name: Notification.Name(name), object: nil) }
        // UIKit's names mean nothing to these lifecycles' captures.
        center.post(name: Notification.Name("UIApplicationDidBecomeActiveNotification"), object: nil)
        try recorder.close()
        let (header, events) = try RecorderTraces.read(path)
        #expect(header?.lifecycle == sequence.lifecycle)
        let expected = sequence.posts.map { name in
            LifecycleNotification(rawValue: name)?.eventKind
        }
        #expect(Array(events.dropFirst().map(\.kind)) == expected.compactMap { $0 })
        #expect(try RecorderTraces.errors(path).map(\.rawValue) == sequence.errors)
    }
}
