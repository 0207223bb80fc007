/// What reading a trace found out about its container, for `lifetrace info`.
public struct TraceStatistics: Hashable, Sendable {
    /// The bytes read.
    public var bytes = 0
    /// The events read (unknown kinds skipped are not counted).
    public var events = 0
    /// The timestamp of the first event.
    public var firstT: Int64?
    /// The timestamp of the last event.
    public var lastT: Int64?
    /// Binary traces: the data frames read.
    public var dataFrames = 0
    /// Binary traces: skippable frames other than the header and index.
    public var otherFrames = 0
    /// Binary traces: whether an index frame was found.
    public var indexPresent = false
    /// Binary traces: whether the index agrees with the frames read.
    public var indexConsistent = false
    /// Binary traces: the format version the file was written in.
    public var formatVersion: (major: UInt8, minor: UInt8)?
    /// Records of unknown kinds skipped.
    public var skippedUnknownKinds = 0
    /// JSON Lines: lines read, blank ones included.
    public var lines = 0
    /// Whether the trace ends in an incomplete frame or line.
    public var truncated = false

    /// Creates empty statistics.
    public init() {}

    /// Compares statistics member by member.
    public static func == (lhs: TraceStatistics, rhs: TraceStatistics) -> Bool {
        lhs.bytes == rhs.bytes && lhs.events == rhs.events && lhs.firstT == rhs.firstT && lhs.lastT == rhs.lastT
            && lhs.dataFrames == rhs.dataFrames && lhs.otherFrames == rhs.otherFrames
            && lhs.indexPresent == rhs.indexPresent && lhs.indexConsistent == rhs.indexConsistent
            && lhs.formatVersion?.major == rhs.formatVersion?.major
            && lhs.formatVersion?.minor == rhs.formatVersion?.minor
            && lhs.skippedUnknownKinds == rhs.skippedUnknownKinds && lhs.lines == rhs.lines
            && lhs.truncated == rhs.truncated
    }

    /// Hashes the statistics consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes)
        hasher.combine(events)
        hasher.combine(dataFrames)
        hasher.combine(lines)
    }
}
