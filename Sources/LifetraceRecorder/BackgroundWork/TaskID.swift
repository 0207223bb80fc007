/// A background task the recorder numbered (``Recorder/beginTask(name:)``): the `task` of its `task.begin` and
/// `task.end` events.
public struct TaskID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The number in the trace: 1, 2, 3, ... in the order the recorder's tasks began.
    public let rawValue: Int64

    /// The task numbered `rawValue`.
    public init(rawValue: Int64) {
        self.rawValue = rawValue
    }

    /// The number.
    public var description: String { String(rawValue) }
}
