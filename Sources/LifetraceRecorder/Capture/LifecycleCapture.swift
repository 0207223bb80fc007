public import Foundation
import LifetraceConcurrency
import LifetraceCore
import LifetraceFormat

/// Records the app's lifecycle by observing the notifications the UI framework posts for every callback, the
/// way crash and performance SDKs do: one call at start-up instead of a call in every delegate method.
///
/// ```swift
/// try Recorder.start()                          // captures the lifecycle until Recorder.stop()
/// ```
///
/// A capture runs until its recorder closes (or ``stop()``): the recorder holds it, and it holds the
/// recorder, so dropping either reference loses nothing. Captured events carry no handler durations (a
/// notification comes after its delegate method returned), and the trace's header says
/// `"capture": "notifications"`, so `lifetrace check` applies its ordering rules but does not take the
/// `UIApplication` notifications of a scene-based app for delegate callbacks. A scene is named by its
/// session's `persistentIdentifier`, which survives disconnection and reconnection.
///
/// When the app resigns active, enters the background or hides, the observer queues a write of everything
/// buffered and returns at once, never waiting for the file: a background-time assertion held off the main
/// thread keeps the app from being suspended until the write lands, so the events of the last moments before a
/// suspension are on disk. On termination, after which the process may end at once, the observer waits for that
/// write, at most one second of the five or so that UIKit gives `applicationWillTerminate(_:)` and its
/// observers in all (Apple, "applicationWillTerminate(_:)"), so that the app's own handler keeps the rest.
public final class LifecycleCapture: Sendable {
    /// The longest the termination notification's observer waits for the trace's write to land. A write still
    /// running then goes on, and lands if the process lives long enough.
    static let terminationWriteBound: DispatchTimeInterval = .seconds(1)

    private let center: NotificationCenter
    private let observers: LockedValue<[any NSObjectProtocol]>
    private let recorder: Recorder
    private let scenes = SceneIdentifiers()
    /// Launch reasons a scene delegate gave for scenes whose `scene.willConnect` is not recorded yet, and the
    /// buffered `scene.willConnect` events of scenes whose reason has not come yet.
    private let connections = LockedValue(SceneConnections())

    init(recorder: Recorder, center: NotificationCenter) {
        self.center = center
        self.recorder = recorder
        self.observers = LockedValue([])
        // Apple: read `thermalState` before registering for its notification.
        _ = recorder.probes.thermalState()
        var observers: [any NSObjectProtocol] = []
        for notification in LifecycleNotification.observed(for: recorder.lifecycle) {
            // The observer holds the capture (and so the recorder) until stop() removes it.
            observers.append(
                center.addObserver(
                    forName: Notification.Name(notification.rawValue), object: nil,
                    queue: nil
                ) { [self] posted in
                    record(notification, object: posted.object, userInfo: posted.userInfo)
                })
        }
        self.observers.withLock { $0 = observers }
    }

    /// Stops observing. Events recorded so far stay in the recorder; closing it is up to its owner.
    public func stop() {
        let removed = observers.withLock { observers in
            defer { observers.removeAll() }
            return observers
        }
        for observer in removed { center.removeObserver(observer) }
    }

    /// Records `notification`, posted with `object` and `userInfo`, then makes it durable if it must be.
    private func record(_ notification: LifecycleNotification, object: Any?, userInfo: [AnyHashable: Any]?) {
        let kind = notification.eventKind
        switch notification {
        case _ where notification.isSceneNotification:
            let scene = scenes.identifier(of: object, disconnecting: notification == .sceneDidDisconnect)
            if notification == .sceneWillConnect {
                recordConnection(of: scene)
            } else {
                recorder.record(kind, scene: scene)
            }
        case .applicationDidFinishLaunching:
            let keys = userInfo?.keys.compactMap { $0.base as? String } ?? []
            recorder.record(kind, reason: LaunchReason.launchOptions(keys: keys))
        case .thermalStateDidChange:
            let raw = recorder.probes.thermalState() ?? (object as? Int)
            recorder.record(kind, reason: raw.map(LifecycleNotification.thermalStateName) ?? "unknown")
        default:
            recorder.record(kind)
        }
        guard notification.writesDurably else { return }
        if kind == .appWillTerminate {
            recorder.flushDurably(waitingAtMost: Self.terminationWriteBound)
        } else {
            recorder.flushDurably()
        }
    }

    /// Records `scene.willConnect` for `scene`, with the launch reason its scene delegate gave if it gave one
    /// already.
    private func recordConnection(of scene: String) {
        let reason = connections.withLock { $0.reasons.removeValue(forKey: scene) }
        let sequence = recorder.recordReturningSequence(.sceneWillConnect, scene: scene, reason: reason ?? nil)
        if reason == nil, let sequence {
            connections.withLock { $0.awaitingReason[scene] = sequence }
        }
    }

    /// Gives `scene`'s launch reason (from its connection options): on its `scene.willConnect` if that is
    /// still buffered or not recorded yet, whichever of the two UIKit does first.
    func setLaunchReason(_ reason: String?, of scene: String) {
        let awaiting = connections.withLock { connections -> RecorderSequence? in
            if let sequence = connections.awaitingReason.removeValue(forKey: scene) { return sequence }
            connections.reasons[scene] = .some(reason)
            return nil
        }
        guard let awaiting, let reason else { return }
        if !recorder.setReason(reason, of: awaiting) {
            // Written already (a flush came between the two): the reason follows as a marker of its own.
            recorder.mark(
                "launch-reason",
                attrs: [
                    Attribute(Attribute.Key.scene, .string(scene)),
                    Attribute(Attribute.Key.reason, .string(reason)),
                ])
        }
    }

    /// Records the state the application and its scenes are in now, if it has finished launching: what a
    /// recorder started late must say so that the callbacks after it read right.
    func recordSnapshot() {
        guard let lifecycle = recorder.lifecycle else { return }
        let record: @Sendable () -> Void = { [self] in
            guard let snapshot = recorder.probes.applicationSnapshot(lifecycle), snapshot.launched else { return }
            if let application = snapshot.application { recorder.record(.appState, phase: application) }
            for scene in snapshot.scenes { recorder.record(.sceneState, scene: scene.id, phase: scene.phase) }
        }
        #if canImport(ObjectiveC)
        // The UI frameworks are read on the main thread.
        if Thread.isMainThread { record() } else { DispatchQueue.main.async(execute: record) }
        #else
        record()
        #endif
    }
}

/// A scene's connection and its launch reason, which may come in either order.
private struct SceneConnections {
    /// Reasons given before the scene's `scene.willConnect` (`nil` inside: the options showed none).
    var reasons: [String: String?] = [:]
    /// `scene.willConnect` events recorded before their scene's reason was given.
    var awaitingReason: [String: RecorderSequence] = [:]
}

extension Recorder {
    /// Starts recording the lifecycle notifications `center` posts (see ``LifecycleCapture``) and marks the
    /// trace's header as captured from notifications. Calling it again for the same centre returns the same
    /// capture: every notification is recorded once.
    ///
    /// If the recorder started after the app finished launching, it first records the state the application
    /// and each connected scene are in (`app.state`, `scene.state`), so that `check` reads the callbacks that
    /// follow from where the lifecycle stands.
    ///
    /// - Parameter center: the notification centre to observe: `.default`, where the frameworks post.
    /// - Returns: the capture, which runs until the recorder closes.
    /// - Throws: ``RecorderError/Kind/headerAlreadyWritten`` if the trace's header was already written without
    ///   `"capture": "notifications"` (a recorder that wrote a frame before its capture started): its events
    ///   would be judged as measured callbacks. ``start(_:)`` captures from the start.
    @discardableResult
    public func captureLifecycle(from center: NotificationCenter = .default) throws(RecorderError) -> LifecycleCapture {
        try setCaptureMethod(.notifications)
        let (capture, isNew) = capture(of: center) { LifecycleCapture(recorder: self, center: center) }
        if isNew { capture.recordSnapshot() }
        return capture
    }

    /// Gives the launch reason a scene's connection options show: the one line a scene-based app adds to its
    /// scene delegate, since UIKit hands a scene-based app its launch URL, quick action, Handoff activity or
    /// notification there and not in the launch options.
    ///
    /// ```swift
    /// func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
    ///     Recorder.shared?.sceneWillConnect(session.persistentIdentifier, options: connectionOptions)
    /// ```
    ///
    /// The reason goes on the scene's `scene.willConnect`, which the lifecycle capture records.
    public func sceneWillConnect(_ sceneIdentifier: String, options: AnyObject) {
        sceneWillConnect(sceneIdentifier, launchReason: probes.connectionOptionsReason(options))
    }

    /// Gives `sceneIdentifier`'s launch reason (`url`, `shortcut`, `user-activity`, `notification`, or `nil`
    /// for none) for its `scene.willConnect`.
    public func sceneWillConnect(_ sceneIdentifier: String, launchReason: String?) {
        for capture in allCaptures() { capture.setLaunchReason(launchReason, of: sceneIdentifier) }
    }
}

/// The identifiers of the scenes a capture has seen.
///
/// On Apple platforms a scene notification's object is the `UIScene`, named by its session's
/// `persistentIdentifier` (read by key, without importing UIKit). A `String` object is the identifier itself,
/// which is what tests post. Any other object gets an identifier of its own, `scene-1`, `scene-2`, ..., kept
/// until the scene disconnects.
final class SceneIdentifiers: Sendable {
    private let known = LockedValue<(ids: [ObjectIdentifier: String], next: Int)>(([:], 0))

    func identifier(of object: Any?, disconnecting: Bool) -> String {
        if let string = object as? String { return string }
        #if canImport(ObjectiveC)
        if let scene = object as? NSObject, scene.responds(to: NSSelectorFromString("session")),
            let session = scene.value(forKey: "session") as? NSObject,
            session.responds(to: NSSelectorFromString("persistentIdentifier")),
            let identifier = session.value(forKey: "persistentIdentifier") as? String
        {
            return identifier
        }
        #endif
        guard let object, type(of: object) is AnyClass else { return "scene" }
        let key = ObjectIdentifier(object as AnyObject)
        return known.withLock { known in
            let id: String
            if let existing = known.ids[key] {
                id = existing
            } else {
                known.next += 1
                id = "scene-\(known.next)"
                known.ids[key] = id
            }
            if disconnecting { known.ids[key] = nil }
            return id
        }
    }
}
