/// A recorder refused a call that would leave a wrong trace.
public struct RecorderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was refused.
    public enum Kind: Hashable, Sendable {
        /// The lifecycle capture began after the trace's header was written without saying so: `check` would
        /// read the notifications as callbacks.
        case headerAlreadyWritten
    }

    /// What was refused.
    public var kind: Kind
    /// Why, for a person.
    public var message: String

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// `lifetrace recorder: MESSAGE`.
    public var description: String { "lifetrace recorder: \(message)" }
}
