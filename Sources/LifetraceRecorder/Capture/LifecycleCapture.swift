public import Foundation
import LifetraceConcurrency
import LifetraceCore
import LifetraceFormat

/// Records the app's lifecycle by observing the notifications UIKit posts for every callback, the way crash
/// and performance SDKs do: one line at start-up instead of a call in every delegate method.
///
/// ```swift
/// let recorder = try Recorder(file: traceURL, app: "com.example.app", sceneManifest: true)
/// let capture = recorder.captureLifecycle()
/// ...
/// capture.stop()
/// ```
///
/// Captured events carry no handler durations (a notification comes after its delegate method returned), and
/// the trace's header says `"capture": "notifications"`, so `lifetrace check` applies its ordering rules but
/// does not take the `UIApplication` notifications of a scene-based app for delegate callbacks. A scene is
/// named by its session's `persistentIdentifier`, which survives disconnection and reconnection.
///
/// The recorder writes what it buffered soon after the app resigns active or enters the background, and at
/// once when it terminates, so the last events before a suspension or a kill are on disk.
public final class LifecycleCapture: Sendable {
    private let center: NotificationCenter
    private let observers: LockedValue<[any NSObjectProtocol]>

    init(recorder: Recorder, center: NotificationCenter) {
        self.center = center
        let scenes = SceneIdentifiers()
        var observers: [any NSObjectProtocol] = []
        for notification in LifecycleNotification.allCases {
            observers.append(center.addObserver(forName: Notification.Name(notification.rawValue), object: nil,
                                                queue: nil) { [weak recorder] posted in
                recorder?.record(notification, object: posted.object, userInfo: posted.userInfo, scenes: scenes)
            })
        }
        self.observers = LockedValue(observers)
    }

    /// Stops observing. Events recorded so far stay in the recorder; closing it is up to its owner.
    public func stop() {
        let removed = observers.withLock { observers in
            defer { observers.removeAll() }
            return observers
        }
        for observer in removed { center.removeObserver(observer) }
    }

    deinit {
        stop()
    }
}

extension Recorder {
    /// Starts recording the lifecycle notifications `center` posts (see ``LifecycleCapture``) and marks the
    /// trace's header as captured from notifications. Call it right after creating the recorder, before its
    /// first flush writes the header.
    ///
    /// - Parameter center: the notification centre to observe: `.default`, where UIKit posts.
    /// - Returns: the capture; ``LifecycleCapture/stop()`` ends it.
    public func captureLifecycle(from center: NotificationCenter = .default) -> LifecycleCapture {
        setCaptureMethod(.notifications)
        return LifecycleCapture(recorder: self, center: center)
    }

    /// Records `notification`, posted with `object` and `userInfo`.
    fileprivate func record(_ notification: LifecycleNotification, object: Any?, userInfo: [AnyHashable: Any]?,
                            scenes: SceneIdentifiers) {
        let kind = notification.eventKind
        if notification.isSceneNotification {
            let scene = scenes.identifier(of: object, disconnecting: notification == .sceneDidDisconnect)
            record(kind, scene: scene)
        } else if notification == .applicationDidFinishLaunching {
            let keys = userInfo?.keys.compactMap { $0.base as? String } ?? []
            record(kind, reason: LifecycleNotification.launchReason(optionKeys: keys))
        } else {
            record(kind)
        }
        switch notification.flush {
        case .none: break
        case .soon: flushSoon()
        case .now: try? flush()
        }
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
            let identifier = session.value(forKey: "persistentIdentifier") as? String {
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
