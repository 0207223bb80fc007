/// A model file that is not a valid lifecycle model.
public struct ModelError: Error, Sendable, CustomStringConvertible {
    /// The model's file.
    public var file: String
    /// What is wrong.
    public var message: String

    /// The error `message` of the model in `file`.
    package init(file: String, message: String) {
        self.file = file
        self.message = message
    }

    /// `FILE: MESSAGE`.
    public var description: String { "\(file): \(message)" }
}
