import Foundation

/// A directory under the system's temporary directory, removed when the value is released.
public final class TemporaryDirectory: @unchecked Sendable {
    /// The directory's path.
    public let path: String

    /// Creates a fresh directory.
    public init() {
        path = NSTemporaryDirectory() + "lifetrace-test-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The path of `name` inside the directory.
    public func file(_ name: String) -> String {
        path + "/" + name
    }

    /// Writes `bytes` to `name` and returns its path.
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) -> String {
        let path = file(name)
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    /// Writes `text` to `name` and returns its path.
    @discardableResult
    public func write(_ name: String, text: String) -> String {
        write(name, Array(text.utf8))
    }

    /// The bytes of `name`.
    public func read(_ name: String) -> [UInt8] {
        Array(FileManager.default.contents(atPath: file(name)) ?? Data())
    }
}
