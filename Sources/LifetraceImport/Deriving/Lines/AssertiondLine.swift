/// assertiond's lines about the app, before runningboardd replaced it (iOS 13).
enum AssertiondLine {
    /// `Submitted job with label: UIKitApplication:ID[0x966e][63]`: launchd is to start the app's process.
    static func observe(_ message: String, bundle: String) -> SystemObservation? {
        let prefix = "Submitted job with label: UIKitApplication:"
        guard message.hasPrefix(prefix), message.dropFirst(prefix.count).hasPrefix(bundle + "[") else { return nil }
        return SystemObservation(.jobStarted)
    }
}
