/// Something a reader recovered from, which the user should still hear about.
///
/// Its description is the line the command-line tool prints on standard error:
/// `run.lifetrace: truncated at byte 81234: 5120 events recovered`.
public struct TraceWarning: Hashable, Sendable, CustomStringConvertible {
    /// The kind of the warning.
    public enum Kind: Hashable, Sendable {
        /// The last frame ends early (the writer was killed); every event before it was read.
        case truncated
        /// Records of kinds a newer minor version added were skipped.
        case unknownKindsSkipped
        /// Frames or lines that are not lifetrace data were skipped.
        case skipped
        /// The index lists other data frames than the file holds: frames were removed or changed after it was
        /// written, and what was read is not the whole trace.
        case indexDisagrees
    }

    /// The kind of the warning.
    public var kind: Kind
    /// The file's path as the user gave it.
    public var file: String
    /// What happened, for a person.
    public var message: String

    /// Creates a warning.
    public init(_ kind: Kind, file: String, _ message: String) {
        self.kind = kind
        self.file = file
        self.message = message
    }

    /// `FILE: MESSAGE`.
    public var description: String { "\(file): \(message)" }
}
