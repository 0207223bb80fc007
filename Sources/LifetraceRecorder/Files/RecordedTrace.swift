public import Foundation

/// A trace file a recorder wrote, as ``Recorder/traces(in:)`` lists it.
public struct RecordedTrace: Sendable, Equatable {
    /// The file.
    public let url: URL
    /// When its process launched (to the second), if its name says (the recorder names the files it creates
    /// in a directory that way).
    public let launchDate: Date?
    /// Its process's id, if its name says.
    public let processID: Int64?
    /// Its size in bytes.
    public let byteCount: Int64
}

extension Recorder {
    /// The traces (`*.lifetrace`) in `directory`, the most recent launch first; files whose names do not say
    /// when they were launched come last, by name. While recording, the first is this launch's own; to read
    /// how the last session ended, take ``previousTrace(in:)``.
    public static func traces(in directory: URL = TraceDestination.standardDirectory) -> [RecordedTrace] {
        TraceDirectory.list(directory).map(\.trace)
    }

    /// The trace of the most recent launch before this process's, in `directory`: the one that shows how the
    /// previous session ended (terminated, killed while suspended, crashed in a handler).
    public static func previousTrace(in directory: URL = TraceDestination.standardDirectory) -> RecordedTrace? {
        let own = SystemInterface.processID()
        return traces(in: directory).first { $0.processID != own }
    }
}
