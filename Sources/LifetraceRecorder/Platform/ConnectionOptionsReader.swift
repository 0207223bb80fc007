#if canImport(ObjectiveC)
import Foundation

/// Reads `UIScene.ConnectionOptions` (`UISceneConnectionOptions`) by property name, without importing
/// UIKit; each property is read only if the object answers its getter.
enum ConnectionOptionsReader {
    /// The launch reason `options` show (see ``LaunchReason/connectionOptions(urlCount:hasShortcutItem:userActivityCount:hasNotificationResponse:hasCloudKitShareMetadata:)``).
    static func launchReason(_ options: AnyObject) -> String? {
        guard let options = options as? NSObject else { return nil }
        func value(_ getter: String) -> Any? {
            guard options.responds(to: NSSelectorFromString(getter)) else { return nil }
            return options.value(forKey: getter)
        }
        func count(_ getter: String) -> Int {
            (value(getter) as? NSSet)?.count ?? 0
        }
        return LaunchReason.connectionOptions(
            urlCount: count("URLContexts"), hasShortcutItem: value("shortcutItem") != nil,
            userActivityCount: count("userActivities"), hasNotificationResponse: value("notificationResponse") != nil,
            hasCloudKitShareMetadata: value("cloudKitShareMetadata") != nil)
    }
}
#endif
