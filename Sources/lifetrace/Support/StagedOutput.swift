import Foundation
import LifetraceFormat
import LifetraceIngest

/// The file a command writes, put in place only once it is whole: written beside its destination under a hidden
/// name (`.NAME.PID.partial`), then renamed to it (``commit()``), so that a command that fails, or that a signal
/// stops, leaves the file that was there before as it was and no half-written one.
///
/// Standard output, and an existing file that is no regular file (`/dev/null`, a pipe) or that this process may not
/// write, are written in place. So is a file whose directory takes no new file (the destination alone is writable). A link is followed: its
/// target is replaced, the link kept. A replaced file keeps its permissions.
final class StagedOutput {
    /// What the command writes to; its errors name the destination.
    let sink: FileSink
    /// The destination as the user gave it.
    let path: String
    /// The hidden file written, and the file it becomes; `nil` when writing in place.
    private let staging: (written: String, destination: String)?
    /// Removes the hidden file on SIGINT or SIGTERM before the process ends.
    private let signals: SignalForwarding?
    private var finished = false

    /// Opens the output `path` (`-`: standard output).
    init(path: String) throws(TraceError) {
        self.path = path
        guard let destination = Self.stagedDestination(of: path) else {
            sink = try FileSink(path: path)
            staging = nil
            signals = nil
            return
        }
        let mode = Self.mode(of: destination)
        let directory = (destination as NSString).deletingLastPathComponent
        let name = (destination as NSString).lastPathComponent
        var attempt = 0
        while true {
            let suffix = attempt == 0 ? "" : ".\(attempt)"
            let written = (directory.isEmpty ? "" : directory + "/") + ".\(name).\(ProcessInfo.processInfo.processIdentifier)\(suffix).partial"
            let created: FileSink?
            do {
                created = try FileSink.createNew(path: written, naming: path, mode: mode)
            } catch {
                // A directory that takes no new file: the destination is written in place, as it was opened before.
                sink = try FileSink(path: path)
                staging = nil
                signals = nil
                return
            }
            if let created {
                sink = created
                staging = (written, destination)
                signals = SignalForwarding(childPID: nil) { try? FileManager.default.removeItem(atPath: written) }
                return
            }
            attempt += 1
        }
    }

    deinit {
        abandon()
    }

    /// Puts the written file in place of the destination.
    func commit() throws(TraceError) {
        guard !finished else { return }
        finished = true
        defer { signals?.cancel() }
        guard let staging else { return }
        if let failure = CommandLineSystem.move(staging.written, replacing: staging.destination) {
            try? FileManager.default.removeItem(atPath: staging.written)
            throw .io(path, at: .file, "cannot replace", failure)
        }
    }

    /// Removes the written file, leaving the destination as it was. Written in place, a regular file is removed
    /// (``OutputFile/discard(_:)``): a half-written output is worth less than none.
    func abandon() {
        guard !finished else { return }
        finished = true
        signals?.cancel()
        if let staging {
            try? FileManager.default.removeItem(atPath: staging.written)
        } else {
            OutputFile.discard(path)
        }
    }

    /// The file a staged write of `path` replaces (links followed), or `nil` if `path` is written in place:
    /// standard output, or an existing file that is not a regular one (a directory fails to open, as before).
    private static func stagedDestination(of path: String) -> String? {
        guard path != "-", !path.isEmpty else { return nil }
        let destination = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard let type = try? FileManager.default.attributesOfItem(atPath: destination)[.type] as? FileAttributeType else {
            return destination  // none there yet
        }
        // A file this process may not write is opened in place, to fail as it did; a dangling link (its type is the
        // link's) is written through.
        return type == .typeRegular && FileManager.default.isWritableFile(atPath: destination) ? destination : nil
    }

    /// The permissions the written file gets: those of the file it replaces, else 0644 (less the umask).
    private static func mode(of destination: String) -> UInt16 {
        let mode = (try? FileManager.default.attributesOfItem(atPath: destination)[.posixPermissions] as? NSNumber)?.uint16Value
        return mode.map { $0 & 0o7777 } ?? 0o644
    }
}
