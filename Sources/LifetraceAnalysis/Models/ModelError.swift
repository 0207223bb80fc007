/// A model file that is not a valid lifecycle model.
public struct ModelError: Error, Sendable, CustomStringConvertible {
    /// The model's file.
    public var file: String
    /// What is wrong.
    public var message: String

    /// `FILE: MESSAGE`.
    public var description: String { "\(file): \(message)" }
}
