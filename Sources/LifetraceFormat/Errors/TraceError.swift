/// An input lifetrace cannot read, with the file and the position that say where.
///
/// Its description is the one-line message the command-line tool prints:
/// `run.lifetrace: byte 81234 (frame 3): zstd: checksum mismatch`.
public struct TraceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, broadly.
    public enum Kind: Hashable, Sendable {
        /// The file could not be opened, read or written.
        case io
        /// The input is not in a format lifetrace reads (wrong magic, not JSON Lines).
        case unrecognized
        /// The input was written by a newer, incompatible major version of the format.
        case unsupportedVersion
        /// The input is damaged or does not follow the format.
        case malformed
        /// A value is out of the range lifetrace accepts (an absurd frame or line size).
        case limitExceeded
    }

    /// The broad class of the error.
    public var kind: Kind
    /// The file's path as the user gave it (`-` for standard input).
    public var file: String
    /// Where in the file.
    public var position: TracePosition
    /// What is wrong, for a person.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, file: String, at position: TracePosition, _ message: String) {
        self.kind = kind
        self.file = file
        self.position = position
        self.message = message
    }

    /// `FILE: POSITION: MESSAGE`, or `FILE:LINE: MESSAGE` for JSON Lines.
    public var description: String {
        switch position {
        case .file: "\(file): \(message)"
        case let .line(line): "\(file):\(line): \(message)"
        case .byte: "\(file): \(position): \(message)"
        }
    }
}
