/// The lines UIKit logs in the app's process about background tasks (`beginBackgroundTask`, `endBackgroundTask`):
///
/// ```text
/// Will add backgroundTask with taskName: Upload, expirationHandler: <__NSMallocBlock__: 0x107362a60>
/// Created background task <private>.
/// Created background task <UIBackgroundTaskInfo: ...>: taskID = 3, taskName = Upload, ...
/// Ending background task with UIBackgroundTaskIdentifier: 3
/// Ending task with identifier 3 and description: ..., _expireHandler: <__NSMallocBlock__: 0x107362a60>
/// ```
enum UIKitTaskLine {
    static let announcement = "Will add backgroundTask with taskName: "
    static let redactedCreation = "Created background task <private>"
    static let creation = "Created background task "
    static let end = "Ending background task with UIBackgroundTaskIdentifier: "
    static let endDetail = "Ending task with identifier "

    /// What a task line says.
    enum Observation: Sendable, Equatable {
        /// A task is about to be created, with this expiration handler block (`nil`: `(null)` or none shown).
        case announced(handler: String?)
        /// A task was created: its number (`nil` where the log redacts it) and its name (`nil` where redacted).
        case created(id: Int64?, name: String?)
        /// A creation line whose number does not parse.
        case creationNotUnderstood
        /// A task ended.
        case ended(id: Int64)
        /// An end line whose number does not parse.
        case endNotUnderstood
        /// The detail UIKit logs after an end: the number, and the expiration handler block the task had.
        case endedWithHandler(id: Int64, handler: String?)
    }

    /// What `message` says about a background task, if it is one of these lines.
    static func observe(_ message: String) -> Observation? {
        if message.hasPrefix(announcement) {
            return .announced(handler: handler(after: "expirationHandler: ", in: message))
        }
        if message.hasPrefix(creation) {
            var name = field(after: "taskName = ", in: message)
            if name == "<private>" { name = nil }
            if message.hasPrefix(redactedCreation) { return .created(id: nil, name: name) }
            guard let id = integer(after: "taskID = ", in: message) else { return .creationNotUnderstood }
            return .created(id: id, name: name)
        }
        if message.hasPrefix(end) {
            guard let id = integer(after: "UIBackgroundTaskIdentifier: ", in: message) else { return .endNotUnderstood }
            return .ended(id: id)
        }
        if message.hasPrefix(endDetail), let id = integer(after: "Ending task with identifier ", in: message) {
            return .endedWithHandler(id: id, handler: handler(after: "_expireHandler: ", in: message))
        }
        return nil
    }

    /// The handler block after `marker` up to its closing bracket (`<__NSMallocBlock__: 0x107362a60` of
    /// `<__NSMallocBlock__: 0x107362a60>`): what tells one block from another; `nil` for `(null)` or none.
    static func handler(after marker: StaticString, in message: String) -> String? {
        guard let range = UTF8Search.range(of: marker, in: message) else { return nil }
        let value = UTF8Search.prefix(message, from: range.upperBound) { $0 == UInt8(ascii: ">") }
        guard value.hasPrefix("<"), value.count > 1 else { return nil }
        return String(value)
    }

    /// The integer after `marker` in `message`.
    static func integer(after marker: StaticString, in message: String) -> Int64? {
        guard let range = UTF8Search.range(of: marker, in: message) else { return nil }
        return UTF8Search.integer(message, at: range.upperBound)
    }

    /// The text after `marker` up to the next comma; `nil` if empty.
    static func field(after marker: StaticString, in message: String) -> String? {
        guard let range = UTF8Search.range(of: marker, in: message) else { return nil }
        let value = UTF8Search.prefix(message, from: range.upperBound) { $0 == UInt8(ascii: ",") }
        return value.isEmpty ? nil : String(value)
    }
}
