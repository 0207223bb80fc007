#if canImport(ObjectiveC)
import Foundation
import LifetraceCore

/// Reads the application's and its scenes' states through the Objective-C runtime, by class and property
/// name, so that the recorder imports no UI framework (and builds for app extensions, where
/// `UIApplication.shared` is not available). Every message is sent only after `responds(to:)` says the
/// object has it, so a name that does not exist on a platform reads as "unknown", never as a crash.
enum ApplicationStateReader {
    /// The snapshot of `lifecycle`'s application object, read on the main thread (where UIKit, WatchKit
    /// and AppKit must be read); `nil` off it, in an app extension, or where the object does not exist.
    static func read(_ lifecycle: TraceHeader.Lifecycle) -> ApplicationSnapshot? {
        guard Thread.isMainThread else { return nil }
        switch lifecycle {
        case .uikit:
            guard let application = shared("UIApplication", "sharedApplication") else { return nil }
            var scenes: [(id: String, activationState: Int)] = []
            if let connected = object(application, "connectedScenes") as? NSSet {
                for case let scene as NSObject in connected {
                    guard let state = integer(scene, "activationState"), let session = object(scene, "session"),
                        let id = object(session, "persistentIdentifier") as? String
                    else { continue }
                    scenes.append((id, state))
                }
            }
            return .uikit(
                applicationState: integer(application, "applicationState"),
                scenes: scenes.sorted { $0.id < $1.id })
        case .watchkit:
            guard
                let application = shared("WKApplication", "sharedApplication")
                    ?? shared("WKExtension", "sharedExtension")
            else { return nil }
            return .watchkit(applicationState: integer(application, "applicationState"))
        case .appkit:
            guard let application = shared("NSApplication", "sharedApplication") else { return nil }
            return .appkit(isActive: boolean(application, "isActive"), isRunning: boolean(application, "isRunning"))
        case .appExtension, .service:
            return nil
        }
    }

    /// `+[className selector]`, if the class exists and answers it.
    private static func shared(_ className: String, _ selector: String) -> NSObject? {
        guard let type = NSClassFromString(className) as? NSObject.Type else { return nil }
        let message = NSSelectorFromString(selector)
        guard type.responds(to: message) else { return nil }
        return type.perform(message)?.takeUnretainedValue() as? NSObject
    }

    /// The object-valued property `getter` of `object`, if it has one.
    private static func object(_ object: NSObject, _ getter: String) -> Any? {
        guard object.responds(to: NSSelectorFromString(getter)) else { return nil }
        return object.value(forKey: getter)
    }

    /// The integer property `getter` of `object` (an `NSInteger` enumeration), if it has one.
    private static func integer(_ object: NSObject, _ getter: String) -> Int? {
        (Self.object(object, getter) as? NSNumber)?.intValue
    }

    /// The Boolean property whose getter is `getter` (`isActive`), `false` if it has none.
    private static func boolean(_ object: NSObject, _ getter: String) -> Bool {
        guard object.responds(to: NSSelectorFromString(getter)) else { return false }
        // Key-value coding finds `isActive` for the key `active`.
        let key = getter.hasPrefix("is") ? getter.dropFirst(2).prefix(1).lowercased() + getter.dropFirst(3) : getter
        return (object.value(forKey: key) as? NSNumber)?.boolValue ?? false
    }
}
#endif
