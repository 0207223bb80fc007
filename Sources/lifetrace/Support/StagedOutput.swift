import Foundation
import LifetraceConcurrency
import LifetraceFormat
import LifetraceIngest
import SystemPackage

/// The file a command writes, put in place only once it is whole: written beside its destination under a hidden
/// name (`.NAME.PID.partial`), then renamed to it (``commit()``), so that a command that fails, or that a signal
/// stops, leaves the file that was there before as it was and no half-written one.
///
/// A link is followed, as opening it would: its target is replaced, the link kept. A replaced file keeps its
/// permissions, and its owner where this user may give it. Written in place instead, as before: standard output,
/// an existing file that is no regular file (`/dev/null`, a pipe), one this user may not write, one with other
/// names (hard links, which a rename would part from it), and any file in a directory this user may not add to.
/// Where the rename is refused (a file mounted on its own in a container, another user's file in a sticky
/// directory), the written file is copied into the destination.
final class StagedOutput {
    /// What the command writes to; its errors name the destination.
    let sink: FileSink
    /// The destination as the user gave it.
    let path: String
    /// The hidden file written, and the file it becomes; `nil` when writing in place.
    private let staging: (written: String, destination: String)?
    /// The hidden file while it is not in place (`nil` once renamed or removed), under the lock that the signal
    /// handler and ``commit()`` take: a signal during the rename waits for it, then leaves the new file in place.
    private let pending: LockedValue<String?>
    /// Removes the hidden file on SIGINT or SIGTERM before the process ends.
    private let signals: SignalForwarding?
    private var finished = false

    /// Opens the output `path` (`-`: the standard output of `console`).
    init(path: String, on console: Console) throws(TraceError) {
        self.path = path
        guard let (destination, existing) = Self.stagedDestination(of: path) else {
            sink = try FileSink(path: path, standardOutput: console.output)
            staging = nil
            pending = LockedValue(nil)
            signals = nil
            return
        }
        // A replaced file keeps its mode; a new one is created as the shell creates one (0666 less the umask).
        let kept = (existing?[.posixPermissions] as? NSNumber).map { UInt16(truncatingIfNeeded: $0.intValue) & 0o7777 }
        let mode = kept ?? 0o666
        let directory = (destination as NSString).deletingLastPathComponent
        let name = (destination as NSString).lastPathComponent
        // From before the file exists, so that no signal finds it unknown.
        let pending = LockedValue<String?>(nil)
        self.pending = pending
        signals = SignalForwarding(childPID: nil) {
            pending.withLock { written in
                if let written { try? FileManager.default.removeItem(atPath: written) }
                written = nil
            }
        }
        var attempt = 0
        while true {
            let suffix = attempt == 0 ? "" : ".\(attempt)"
            let written =
                (directory.isEmpty ? "" : directory + "/")
                + ".\(name).\(ProcessInfo.processInfo.processIdentifier)\(suffix).partial"
            let created: FileSink?
            do {
                created = try FileSink.createNew(path: written, naming: path, mode: mode)
            } catch {
                signals?.cancel()
                throw error
            }
            if let created {
                pending.withLock { $0 = written }
                sink = created
                staging = (written, destination)
                // A new file keeps what the umask made of its mode. A replaced one's mode lost bits to the umask
                // when created: it is set again, and the owner is the replaced file's where allowed.
                guard existing != nil else { return }
                var attributes: [FileAttributeKey: Any] = [.posixPermissions: NSNumber(value: mode)]
                if let owner = existing?[.ownerAccountID] { attributes[.ownerAccountID] = owner }
                if let group = existing?[.groupOwnerAccountID] { attributes[.groupOwnerAccountID] = group }
                if (try? FileManager.default.setAttributes(attributes, ofItemAtPath: written)) == nil {
                    try? FileManager.default.setAttributes(
                        [.posixPermissions: NSNumber(value: mode)], ofItemAtPath: written)
                }
                return
            }
            attempt += 1
        }
    }

    deinit {
        abandon()
    }

    /// Puts the written file in place of the destination: renamed to it, or copied into it where the rename is
    /// refused.
    func commit() throws(TraceError) {
        guard !finished else { return }
        finished = true
        defer { signals?.cancel() }
        guard let staging else { return }
        let failure: Errno? = pending.withLock { written in
            guard written != nil else { return nil }
            written = nil
            return CommandLineSystem.move(staging.written, replacing: staging.destination)
        }
        guard let failure else { return }
        defer { try? FileManager.default.removeItem(atPath: staging.written) }
        guard [.permissionDenied, .notPermitted, .resourceBusy, .improperLink].contains(failure) else {
            throw .io(path, at: .file, "cannot replace", failure)
        }
        try Self.copy(staging.written, into: staging.destination, naming: path)
    }

    /// Removes the written file, leaving the destination as it was. Written in place, a regular file is removed
    /// (``OutputFile/discard(_:)``): a half-written output is worth less than none.
    func abandon() {
        guard !finished else { return }
        finished = true
        signals?.cancel()
        if staging != nil {
            pending.withLock { written in
                if let written { try? FileManager.default.removeItem(atPath: written) }
                written = nil
            }
        } else {
            OutputFile.discard(path)
        }
    }

    /// Copies the file at `source` into `destination`, in place (its errors naming `name`).
    private static func copy(_ source: String, into destination: String, naming name: String) throws(TraceError) {
        let input: FileDescriptor
        do { input = try FileDescriptor.open(source, .readOnly) } catch {
            throw .io(name, at: .file, "cannot replace", error)
        }
        defer { try? input.close() }
        let output = try FileSink(path: destination)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count: Int
            do { count = try buffer.withUnsafeMutableBytes { try input.read(into: $0) } } catch {
                throw .io(name, at: .file, "cannot replace", error)
            }
            guard count > 0 else { return }
            let written: Result<Void, TraceError> = buffer.withUnsafeBytes { bytes in
                do throws(TraceError) {
                    try output.write(UnsafeRawBufferPointer(rebasing: bytes[..<count]))
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            try written.get()
        }
    }

    /// The file a staged write of `path` replaces, with its attributes if it exists; `nil` if `path` is written in
    /// place (see above).
    private static func stagedDestination(of path: String) -> (String, [FileAttributeKey: Any]?)? {
        guard path != "-", !path.isEmpty else { return nil }
        let destination = OutputFile.followingLinks(path)
        let directory = (destination as NSString).deletingLastPathComponent
        guard FileManager.default.isWritableFile(atPath: directory.isEmpty ? "." : directory) else { return nil }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: destination) else {
            return (destination, nil)  // none there yet
        }
        // A file this process may not write is opened in place, to fail as it did; a dangling link (its type is the
        // link's) is written through.
        guard attributes[.type] as? FileAttributeType == .typeRegular,
            (attributes[.referenceCount] as? NSNumber)?.intValue ?? 1 <= 1
        else { return nil }
        return FileManager.default.isWritableFile(atPath: destination) ? (destination, attributes) : nil
    }
}
