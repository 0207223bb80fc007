/// Where in an input something was found: a byte offset (binary traces) or a line (JSON Lines).
public enum TracePosition: Hashable, Sendable, CustomStringConvertible {
    /// A byte offset in a binary trace, and the number of the frame it is in (0 is the header frame), if known.
    case byte(Int, frame: Int?)
    /// A 1-based line number in a JSON Lines trace.
    case line(Int)
    /// The input as a whole (it could not be opened, or is empty).
    case file

    /// `byte 812 (frame 3)`, `line 12`, or an empty string for the whole file.
    public var description: String {
        switch self {
        case let .byte(offset, frame?): "byte \(offset) (frame \(frame))"
        case let .byte(offset, nil): "byte \(offset)"
        case let .line(line): "line \(line)"
        case .file: ""
        }
    }
}
