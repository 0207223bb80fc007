import Dispatch
import Foundation
import LifetraceAnalysis
import LifetraceConcurrency
import LifetraceCore
import LifetraceFormat
import LifetraceTestSupport
import Testing

@testable import LifetraceRecorder

/// The recorder as an app adopts it: started once, kept by nobody, late or early, relaunched onto the same
/// path. The UI framework's notifications are posted by name on a private centre, as UIKit posts them.
/// Serialized: ``Recorder/start(_:)`` makes the one recorder of the process.
@Suite(.serialized) struct RecorderAdoptionTests {
    let directory = TemporaryDirectory()
    static let scene = "S1"
    typealias Posts = [(LifecycleNotification, String?)]
    static let launch: Posts = LifecycleCaptureTests.launch
    static let toBackground: Posts = LifecycleCaptureTests.toBackground
    static let toForeground: Posts = LifecycleCaptureTests.toForeground

    static func probes(_ snapshot: ApplicationSnapshot? = nil, thermal: Int? = nil) -> SystemProbes {
        SystemProbes(applicationSnapshot: { _ in snapshot }, thermalState: { thermal })
    }

    func post(_ posts: Posts, on center: NotificationCenter) {
        for (notification, object) in posts {
            center.post(name: Notification.Name(notification.rawValue), object: object)
        }
    }

    /// A recorder of a new file at `name` for a UIKit app with a scene manifest, as the initializers make it.
    func recorder(
        _ name: String, probes: SystemProbes = probes(),
        configuration: RecorderConfiguration = .init()
    ) throws -> Recorder {
        try Recorder(
            destination: .file(URL(fileURLWithPath: directory.file(name))), app: "com.example.app",
            sceneManifest: true, metadata: [:], clock: .continuous, lifecycle: .uikit, capture: nil,
            configuration: configuration, probes: probes)
    }

    @Test func startedOnceTheRecorderNeedsNoReferenceAndChecksClean() throws {
        let center = NotificationCenter()
        var options = RecordingOptions(
            destination: .directory(URL(fileURLWithPath: directory.file("traces"))),
            app: "com.example.app", sceneManifest: true, lifecycle: .uikit,
            notificationCenter: center)
        options.probes = Self.probes()
        try Recorder.start(options)  // nothing kept
        let again = try Recorder.start(options)
        #expect(again === Recorder.shared)
        let file = try #require(Recorder.shared?.file)
        // Before any frame, the file already opens: a launch that crashes now leaves a trace with its header.
        let (started, written) = try RecorderTraces.read(file.path)
        #expect(started?.app == "com.example.app" && started?.captureMethod == .notifications)
        #expect(written.allSatisfy { $0.kind == .processLaunch })
        post(Self.launch + Self.toBackground + Self.toForeground, on: center)
        try Recorder.stop()
        #expect(Recorder.shared == nil)

        let (header, events) = try RecorderTraces.read(file.path)
        #expect(header?.captureMethod == .notifications)
        #expect(header?.lifecycle == .uikit)
        #expect(
            events.map(\.kind) == [.processLaunch]
                + (Self.launch + Self.toBackground + Self.toForeground).map(\.0.eventKind))
        #expect(try RecorderTraces.errors(file.path) == [])
        // The file is named for the app, the launch and the process.
        let name = try #require(TraceFileName(fileName: file.lastPathComponent))
        #expect(name.base == "com.example.app" && name.pid == Int64(ProcessInfo.processInfo.processIdentifier))
    }

    /// The README's one line, its result not kept: the trace still holds every lifecycle event.
    @Test func theEnvironmentLineRecordsWithItsResultDropped() throws {
        let center = NotificationCenter()
        let path = directory.file("ui-tests/testLaunch.lifetrace")
        let environment = ["LIFETRACE_PATH": path, "LIFETRACE_TEST_NAME": "testLaunch"]
        #expect(Recorder.fromEnvironment(center: center, environment: [:]) == nil)
        Recorder.fromEnvironment(app: "com.example.app", sceneManifest: true, center: center, environment: environment)
        post(Self.launch + Self.toBackground, on: center)
        try Recorder.stop()
        let (header, events) = try RecorderTraces.read(path)
        #expect(header?[.testName] == .string("testLaunch"))
        #expect(header?.captureMethod == .notifications)
        #expect(events.map(\.kind) == [.processLaunch] + (Self.launch + Self.toBackground).map(\.0.eventKind))

        // A relaunch onto the same path keeps the first trace and writes a new one beside it.
        Recorder.fromEnvironment(app: "com.example.app", sceneManifest: true, center: center, environment: environment)
        post(Self.launch, on: center)
        let second = try #require(Recorder.shared?.file)
        try Recorder.stop()
        #expect(second.path != path)
        #expect(second.deletingLastPathComponent().path == URL(fileURLWithPath: path).deletingLastPathComponent().path)
        #expect(try RecorderTraces.read(path).events.count == 1 + Self.launch.count + Self.toBackground.count)
        #expect(try RecorderTraces.read(second.path).events.count == 1 + Self.launch.count)
        let secondName = try #require(TraceFileName(fileName: second.lastPathComponent))
        #expect(secondName.base == "testLaunch")
    }

    /// `Recorder.start` does no file I/O on the calling thread: the file is created on the recorder's writer queue
    /// (stalled here), `start` returns meanwhile, and every event recorded before the file is there is in it.
    @Test(.timeLimit(.minutes(10))) func startCreatesTheFileOffTheCallingThreadAndKeepsEarlyEvents() throws {
        let center = NotificationCenter()
        let stall = DispatchGroup()
        stall.enter()
        let reached = DispatchSemaphore(value: 0)
        let creator = LockedValue<ObjectIdentifier?>(nil)
        let traces = directory.file("deferred")
        var options = RecordingOptions(
            destination: .directory(URL(fileURLWithPath: traces)), app: "com.example.app",
            sceneManifest: true, lifecycle: .uikit, notificationCenter: center)
        options.probes = SystemProbes(
            applicationSnapshot: { _ in nil }, thermalState: { nil },
            fileCreation: {
                creator.withLock { $0 = ObjectIdentifier(Thread.current) }
                reached.signal()
                stall.wait()
            })
        var released = false
        defer {
            if !released { stall.leave() }
            _ = try? Recorder.stop()
        }
        let caller = ObjectIdentifier(Thread.current)
        let recorder = try Recorder.start(options)  // returns while the file's creation is stalled
        #expect(reached.wait(timeout: .now() + 10) == .success)
        #expect(creator.withLock { $0 } != caller)
        // Not even the directory exists yet; the observers return at once, their writes queued behind the file.
        #expect(!FileManager.default.fileExists(atPath: traces))
        post(Self.launch + Self.toBackground, on: center)
        recorder.mark("before-the-file")
        stall.leave()
        released = true
        let file = try #require(recorder.file)
        #expect(file.deletingLastPathComponent().lastPathComponent == "deferred")
        try Recorder.stop()
        let (header, events) = try RecorderTraces.read(file.path)
        #expect(header?.captureMethod == .notifications)
        #expect(
            events.map(\.kind) == [.processLaunch] + (Self.launch + Self.toBackground).map(\.0.eventKind) + [.custom])
        #expect(try RecorderTraces.errors(file.path) == [])
    }

    /// A recorder and its capture both dropped at once (`let capture = ...` in a scope that ends): the
    /// capture goes on, and a background notification writes everything before it, with no timer or close.
    @Test func aDroppedRecorderAndCaptureGoOnRecording() throws {
        let center = NotificationCenter()
        let path = directory.file("dropped.lifetrace")
        weak var dropped: Recorder?
        do {
            let recorder = try self.recorder("dropped.lifetrace", configuration: .init(flushInterval: .seconds(3600)))
            _ = try recorder.captureLifecycle(from: center)
            dropped = recorder
        }
        post(Self.launch + Self.toBackground, on: center)
        // Kept alive by its capture's observers; the observers queued the writes, which no timer made.
        let recorder = try #require(dropped)
        recorder.waitForWriter()
        let (_, events) = try RecorderTraces.read(path)
        #expect(events.map(\.kind) == [.processLaunch] + (Self.launch + Self.toBackground).map(\.0.eventKind))
    }

    /// What a SIGKILL once the queued write has landed would leave: the bytes are in the file, with no timer
    /// flush, for every notification after which the app may be suspended. (That the observer does not wait for
    /// the write is DurableWriteTests'.) Termination waits for its write: its bytes are there when `post` returns.
    @Test(arguments: [
        LifecycleNotification.sceneWillDeactivate, .applicationWillResignActive, .sceneDidEnterBackground,
        .applicationDidEnterBackground, .applicationWillTerminate, .applicationProtectedDataWillBecomeUnavailable,
    ])
    func eventsBeforeASuspensionPointAreWrittenWithoutATimer(notification: LifecycleNotification) throws {
        let center = NotificationCenter()
        let name = "durable-\(notification.rawValue).lifetrace"
        let recorder = try self.recorder(name, configuration: .init(flushInterval: .seconds(3600)))
        try recorder.captureLifecycle(from: center)
        recorder.mark("saved")
        post([(notification, notification.isSceneNotification ? Self.scene : nil)], on: center)
        if notification != .applicationWillTerminate { recorder.waitForWriter() }
        let (_, events) = try RecorderTraces.read(directory.file(name))
        #expect(events.map(\.kind) == [.processLaunch, .custom, notification.eventKind])
        try recorder.close()
    }

    /// A recorder started while the app is already active says so first, and the callbacks after it check
    /// clean; one started before launch finished records no snapshot.
    @Test func aLateStartRecordsWhereTheLifecycleStandsAndChecksClean() throws {
        let center = NotificationCenter()
        let late = ApplicationSnapshot.uikit(applicationState: 0, scenes: [(Self.scene, 0)])
        let recorder = try self.recorder("late.lifetrace", probes: Self.probes(late))
        try recorder.captureLifecycle(from: center)
        post(Self.toBackground + Self.toForeground, on: center)
        try recorder.close()
        let path = directory.file("late.lifetrace")
        let (_, events) = try RecorderTraces.read(path)
        #expect(Array(events.prefix(3).map(\.kind)) == [.processLaunch, .appState, .sceneState])
        #expect(events[1].phase == .active && events[2].phase == .active && events[2].scene == Self.scene)
        #expect(try RecorderTraces.errors(path) == [])

        let early = ApplicationSnapshot.uikit(applicationState: 1, scenes: [])
        let second = try self.recorder("early.lifetrace", probes: Self.probes(early))
        try second.captureLifecycle(from: center)
        try second.close()
        #expect(try RecorderTraces.read(directory.file("early.lifetrace")).events.map(\.kind) == [.processLaunch])
    }

    /// The header says how the events were captured whatever the order of calls, or the call fails.
    @Test func captureStartedTwiceRecordsOnceAndAfterTheHeaderFailsLoudly() throws {
        let center = NotificationCenter()
        let recorder = try self.recorder("twice.lifetrace")
        let first = try recorder.captureLifecycle(from: center)
        let second = try recorder.captureLifecycle(from: center)
        #expect(first === second)
        try recorder.flush()
        // After the header is written, a capture of the same kind is still the same capture.
        #expect(try recorder.captureLifecycle(from: center) === first)
        post(Self.launch, on: center)
        try recorder.close()
        let path = directory.file("twice.lifetrace")
        let (header, events) = try RecorderTraces.read(path)
        #expect(header?.captureMethod == .notifications)
        #expect(events.map(\.kind) == [.processLaunch] + Self.launch.map(\.0.eventKind))
        #expect(try RecorderTraces.errors(path) == [])

        let late = try self.recorder("late-capture.lifetrace")
        try late.flush()
        let error = #expect(throws: RecorderError.self) { try late.captureLifecycle(from: center) }
        #expect(error?.kind == .headerAlreadyWritten)
        #expect(error?.description.contains("Recorder.start") == true)
        try late.close()
    }

    /// A scene's launch reason reaches its `scene.willConnect` whichever of the two comes first.
    @Test func aScenesLaunchReasonReachesItsConnectionInEitherOrder() throws {
        let center = NotificationCenter()
        let recorder = try self.recorder("reasons.lifetrace", configuration: .init(flushInterval: .seconds(3600)))
        try recorder.captureLifecycle(from: center)
        recorder.sceneWillConnect("A", launchReason: "url")
        post([(.sceneWillConnect, "A")], on: center)
        post([(.sceneWillConnect, "B")], on: center)
        recorder.sceneWillConnect("B", launchReason: "shortcut")
        post([(.sceneWillConnect, "C")], on: center)
        try recorder.flush()
        recorder.sceneWillConnect("C", launchReason: "notification")
        recorder.sceneWillConnect("D", launchReason: nil)
        post([(.sceneWillConnect, "D")], on: center)
        try recorder.close()
        let (_, events) = try RecorderTraces.read(directory.file("reasons.lifetrace"))
        let connections = events.filter { $0.kind == .sceneWillConnect }
        #expect(connections.map(\.scene) == ["A", "B", "C", "D"])
        #expect(connections.map(\.reason) == ["url", "shortcut", nil, nil])
        // C's connection was written before its reason came: the reason follows as a marker.
        let marker = try #require(events.first { $0.kind == .custom })
        #expect(marker.label == "launch-reason")
        #expect(marker.attrs == [Attribute("scene", .string("C")), Attribute("reason", .string("notification"))])
    }

    /// What the connection options of a scene show, in the trace's words.
    @Test func connectionOptionsGiveTheLaunchReason() {
        func reason(
            urls: Int = 0, shortcut: Bool = false, activities: Int = 0, notification: Bool = false,
            share: Bool = false
        ) -> String? {
            LaunchReason.connectionOptions(
                urlCount: urls, hasShortcutItem: shortcut, userActivityCount: activities,
                hasNotificationResponse: notification, hasCloudKitShareMetadata: share)
        }
        #expect(reason() == nil)
        #expect(reason(urls: 1) == "url")
        #expect(reason(shortcut: true) == "shortcut")
        #expect(reason(activities: 2) == "user-activity")
        #expect(reason(notification: true) == "notification")
        #expect(reason(share: true) == "cloudkit-share")
    }

    /// Memory warnings, thermal state and protected data are recorded as the system posts them.
    @Test func memoryThermalAndProtectedDataAreRecorded() throws {
        let center = NotificationCenter()
        let recorder = try self.recorder("system.lifetrace", probes: Self.probes(thermal: nil))
        try recorder.captureLifecycle(from: center)
        center.post(name: Notification.Name("UIApplicationDidReceiveMemoryWarningNotification"), object: nil)
        center.post(name: Notification.Name("NSProcessInfoThermalStateDidChangeNotification"), object: 2)
        center.post(name: Notification.Name("UIApplicationProtectedDataWillBecomeUnavailable"), object: nil)
        center.post(name: Notification.Name("UIApplicationProtectedDataDidBecomeAvailable"), object: nil)
        try recorder.close()
        let (_, events) = try RecorderTraces.read(directory.file("system.lifetrace"))
        #expect(
            events.map(\.kind) == [
                .processLaunch, .appDidReceiveMemoryWarning, .systemThermalState,
                .systemProtectedDataWillBecomeUnavailable, .systemProtectedDataDidBecomeAvailable,
            ])
        #expect(events[2].reason == "serious")
        #expect(
            (0...4).map(LifecycleNotification.thermalStateName) == [
                "nominal", "fair", "serious", "critical", "unknown",
            ])
    }
}
