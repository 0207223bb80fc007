/// Why the process launched, in the words of the trace's `reason` field, from what UIKit hands the app.
enum LaunchReason {
    /// The reason the launch options of `application(_:didFinishLaunchingWithOptions:)` (the
    /// `didFinishLaunchingNotification`'s `userInfo`) show, when they show one; `nil` for a launch without
    /// options, which may be the user's or the system's. A scene-based app gets these in its scenes'
    /// connection options instead (``connectionOptions(urlCount:hasShortcutItem:userActivityCount:hasNotificationResponse:hasCloudKitShareMetadata:)``).
    static func launchOptions(keys: [String]) -> String? {
        let reasons: [(key: String, reason: String)] = [
            ("UIApplicationLaunchOptionsRemoteNotificationKey", "push"),
            ("UIApplicationLaunchOptionsLocationKey", "location"),
            ("UIApplicationLaunchOptionsURLKey", "url"),
            ("UIApplicationLaunchOptionsShortcutItemKey", "shortcut"),
            ("UIApplicationLaunchOptionsUserActivityDictionaryKey", "user-activity"),
            ("UIApplicationLaunchOptionsBluetoothCentralsKey", "bluetooth"),
            ("UIApplicationLaunchOptionsBluetoothPeripheralsKey", "bluetooth"),
        ]
        return reasons.first { keys.contains($0.key) }?.reason
    }

    /// The reason a scene's `UIScene.ConnectionOptions` show: UIKit hands a scene-based app the URL, quick
    /// action, Handoff activity or notification that launched it there, not in the launch options (Apple,
    /// "UIScene.ConnectionOptions"). `nil` when they show none.
    static func connectionOptions(
        urlCount: Int, hasShortcutItem: Bool, userActivityCount: Int,
        hasNotificationResponse: Bool, hasCloudKitShareMetadata: Bool
    ) -> String? {
        if hasNotificationResponse { return "notification" }
        if urlCount > 0 { return "url" }
        if hasShortcutItem { return "shortcut" }
        if userActivityCount > 0 { return "user-activity" }
        if hasCloudKitShareMetadata { return "cloudkit-share" }
        return nil
    }
}
