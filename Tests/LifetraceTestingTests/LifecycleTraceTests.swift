import Foundation
import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat
import LifetraceRecorder
import LifetraceTestSupport
import LifetraceTesting
import Testing

/// A test target asserts on a trace its app wrote: a clean run passes; an illegal sequence fails with the
/// finding's rule id and message; times and handler durations are there for the test's own expectations.
@Suite struct LifecycleTraceTests {
    let directory = TemporaryDirectory()

    /// A scene-based app's run, recorded by the recorder from the notifications UIKit posts.
    func record(_ name: String, _ posts: [(String, String?)], measure: Bool = false) throws -> URL {
        try recordIn(directory, name, posts, measure: measure)
    }

    /// ``record(_:_:measure:)`` in `directory`.
    func recordIn(
        _ directory: TemporaryDirectory, _ name: String, _ posts: [(String, String?)],
        measure: Bool = false
    ) throws -> URL {
        let center = NotificationCenter()
        let url = URL(fileURLWithPath: directory.file(name))
        let recorder = try Recorder(file: url, app: "com.example.app", sceneManifest: true, lifecycle: .uikit)
        try recorder.captureLifecycle(from: center)
        for (notification, scene) in posts {
            center.post(name: Notification.Name(notification), object: scene)
        }
        if measure {
            recorder.measure(.sceneDidEnterBackground, scene: "S1") { usleep(2000) }
        }
        try recorder.close()
        return url
    }

    static let launch: [(String, String?)] = [
        ("UIApplicationDidFinishLaunchingNotification", nil), ("UISceneWillConnectNotification", "S1"),
        ("UISceneWillEnterForegroundNotification", "S1"), ("UISceneDidActivateNotification", "S1"),
        ("UIApplicationDidBecomeActiveNotification", nil),
    ]
    static let toBackground: [(String, String?)] = [
        ("UISceneWillDeactivateNotification", "S1"), ("UIApplicationWillResignActiveNotification", nil),
        ("UISceneDidEnterBackgroundNotification", "S1"), ("UIApplicationDidEnterBackgroundNotification", nil),
    ]

    @Test func aCleanRunPasses() throws {
        let trace = try LifecycleTrace(contentsOf: try record("clean.lifetrace", Self.launch + Self.toBackground))
        trace.expectNoLifecycleErrors()
        #expect(trace.errors.isEmpty)
        #expect(trace.errorReport.isEmpty)
        #expect(trace.events.first?.kind == .processLaunch)
        #expect(trace.time.active > 0 && trace.time.background > 0)
        #expect(trace.processes.count == 1)
    }

    /// Backgrounding without resigning active first (Apple, "Managing your app's life cycle").
    @Test func anIllegalSequenceFailsWithItsRuleAndMessage() throws {
        let url = try record("illegal.lifetrace", Self.launch + [("UISceneDidEnterBackgroundNotification", "S1")])
        let trace = try LifecycleTrace(contentsOf: url)
        #expect(trace.errors.map(\.rule.id) == ["LT003"])
        #expect(trace.findings(of: "LT003").count == 1)
        withKnownIssue {
            trace.expectNoLifecycleErrors()
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("1 lifecycle error")
                && text.contains("error LT003: sceneDidEnterBackground without sceneWillResignActive")
                && text.contains("scene.didEnterBackground while scene is active")
        }
        // The message is what `lifetrace check` prints.
        #expect(trace.errorReport.hasPrefix("\(url.path): t="))
    }

    @Test func handlerDurationsAreThereForTheTestsOwnExpectations() throws {
        let trace = try LifecycleTrace(
            contentsOf: try record("measured.lifetrace", Self.launch + Self.toBackground, measure: true))
        let durations = trace.handlerDurations(of: .sceneDidEnterBackground, scene: "S1")
        #expect(durations.count == 1)
        #expect(durations.first.map { $0.dur >= 2_000_000 && $0.dur < 5_000_000_000 } == true)
        #expect(trace.handlerDurations(of: .appDidFinishLaunching).isEmpty)  // notifications carry none
    }

    /// Read where libzstd is absent, a trace whose frames libzstd compressed is one clear error naming the
    /// frame, never a crash or an empty result.
    @Test func aCompressedTraceReadWithoutTheCodecIsOneClearError() throws {
        let path = PackagePaths.path("SampleTraces/sim-background-and-return.uikit-scenes.lifetrace")
        let error = #expect(throws: TraceError.self) { try LifecycleTrace(contentsOf: URL(fileURLWithPath: path)) }
        let text = error?.description ?? ""
        #expect(text.hasPrefix(path + ": byte "))
        #expect(text.contains("(frame 1)"))
        #expect(text.contains("this build reads stored frames only"))
        #expect(!text.contains("\n"))
    }

    /// A UI test whose app wrote one trace per launch takes the newest.
    @Test func theNewestTraceOfADirectory() throws {
        let folder = URL(fileURLWithPath: directory.file("runs"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let old = try record("runs/app-20200101T000000Z-1.lifetrace", Self.launch)
        _ = old
        let new = try record("runs/app-20300101T000000Z-2.lifetrace", Self.launch + Self.toBackground)
        let trace = try LifecycleTrace.newest(in: folder)
        #expect(trace.analysis.file == new.path)
    }
}
