// Waiting for another process needs `Pipe` and a file system shared with it: macOS and Linux, as Shell.swift.
#if os(macOS) || os(Linux)
public import Foundation

/// Signs a test waits for from another process before it acts on it (sends it a signal, reads its file):
/// a line the process prints, or a state of a file it writes, each with a deadline, never a fixed sleep.
public enum Handshake {
    /// The error when the sign never came.
    public struct Timeout: Error, CustomStringConvertible {
        /// What was awaited.
        public var description: String
    }

    /// Checks `condition` again and again until it holds, or throws ``Timeout`` after `timeout`.
    ///
    /// For signs that are states of a file another process writes (its first frame on disk): the file system
    /// says nothing when a file changes, so the condition is checked every `interval`.
    /// - Parameters:
    ///   - what: what is awaited, for the error.
    ///   - timeout: how long to wait at most.
    ///   - interval: the time between two checks.
    ///   - condition: whether the sign has come.
    public static func wait(
        for what: String, timeout: TimeInterval = 20, interval: TimeInterval = 0.01,
        until condition: () throws -> Bool
    ) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if try condition() { return }
            guard Date() < deadline else { throw Timeout(description: "waited \(timeout) s for \(what)") }
            Thread.sleep(forTimeInterval: interval)
        }
    }
}

/// Collects what another process writes into a pipe, and wakes a waiting test when a line it awaits arrives.
public final class OutputWatcher: @unchecked Sendable {
    private let condition = NSCondition()
    private var data = Data()
    private var ended = false

    /// Starts collecting what is written into `pipe`.
    public init(_ pipe: Pipe) {
        pipe.fileHandleForReading.readabilityHandler = { [self] handle in
            let chunk = handle.availableData
            condition.lock()
            if chunk.isEmpty {
                ended = true
                handle.readabilityHandler = nil
            } else {
                data.append(chunk)
            }
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Everything collected so far, as UTF-8.
    public var text: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: data, as: UTF8.self)
    }

    /// Waits until the output holds the line `line` (without its newline), or throws ``Handshake/Timeout``
    /// after `timeout`, or when the output ends without it.
    public func waitForLine(_ line: String, timeout: TimeInterval = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        let wanted = Data((line + "\n").utf8)
        condition.lock()
        defer { condition.unlock() }
        while !(data.starts(with: wanted) || data.range(of: Data(("\n" + line + "\n").utf8)) != nil) {
            if ended { throw Handshake.Timeout(description: "the output ended without the line \(line)") }
            guard condition.wait(until: deadline) else {
                throw Handshake.Timeout(description: "waited \(timeout) s for the line \(line)")
            }
        }
    }
}
#endif
