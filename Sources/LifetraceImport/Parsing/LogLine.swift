/// One entry of a unified-log capture, whatever its textual form.
public struct LogLine: Sendable, Hashable {
    /// The 1-based input line the entry starts on.
    public var number: Int
    /// Nanoseconds: since 1970 (UTC) when the capture gives dates, else since midnight of the capture's first
    /// day, local time.
    public var timestamp: Int64
    /// Whether ``timestamp`` counts from 1970.
    public var hasDate: Bool
    /// The time zone offset as written (`+0500`), if the capture gives one.
    public var zone: String?
    /// The process name (`SpringBoard`, `runningboardd`, the app's executable).
    public var process: String
    /// The process identifier, if the capture gives one.
    public var pid: Int64?
    /// The subsystem (`com.apple.UIKit`), if the capture gives one.
    public var subsystem: String?
    /// The category, if the capture gives one.
    public var category: String?
    /// The message; continuation lines are joined with newlines.
    public var message: String

    /// Creates an entry.
    public init(
        number: Int, timestamp: Int64, hasDate: Bool, zone: String? = nil, process: String, pid: Int64? = nil,
        subsystem: String? = nil, category: String? = nil, message: String
    ) {
        self.number = number
        self.timestamp = timestamp
        self.hasDate = hasDate
        self.zone = zone
        self.process = process
        self.pid = pid
        self.subsystem = subsystem
        self.category = category
        self.message = message
    }
}
