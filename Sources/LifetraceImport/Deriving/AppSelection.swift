/// Which app of a capture to import: by process name, bundle identifier or pid (at least one).
public struct AppSelection: Sendable {
    /// The app's executable name, as the log names its process.
    public var process: String?
    /// The app's bundle identifier, as SpringBoard and runningboardd name it.
    public var bundleID: String?
    /// The app's process identifier.
    public var pid: Int64?

    /// Creates a selection.
    public init(process: String? = nil, bundleID: String? = nil, pid: Int64? = nil) {
        self.process = process
        self.bundleID = bundleID
        self.pid = pid
    }

    /// Whether nothing selects an app.
    public var isEmpty: Bool { process == nil && bundleID == nil && pid == nil }
}
