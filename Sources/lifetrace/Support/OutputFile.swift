import Foundation
import LifetraceFormat

/// The file a command writes, checked against what it reads: writing it would destroy an input before (or
/// while) it is read, so a command refuses an output that is one of its inputs, by path or through a link.
enum OutputFile {
    /// The device and inode of the file at `path` (links followed), `nil` if there is none.
    static func identity(_ path: String) -> FileIdentity? {
        guard path != "-", !path.isEmpty else { return nil }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: followingLinks(path)),
            let device = (attributes[.systemNumber] as? NSNumber)?.uint64Value,
            let inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value
        else { return nil }
        return FileIdentity(device: device, inode: inode)
    }

    /// The path `path` names once its own links are followed (as `open(2)` follows them), the directories before
    /// its last component kept as written: `sym/../x.json` stays where the kernel takes it, beside where `sym`
    /// points, not beside `sym`. At most 40 links, as the kernel's own limit.
    static func followingLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else {
                return current
            }
            let directory = (current as NSString).deletingLastPathComponent
            current = target.hasPrefix("/") || directory.isEmpty ? target : directory + "/" + target
        }
        return current
    }

    /// Removes what a failed command left at `output`, if it is a regular file (not followed if a link): a
    /// half-written export or conversion is worth less than none. Standard output, a device (`/dev/null`,
    /// `/dev/full`), a pipe, a socket and a link are left as they are.
    static func discard(_ output: String) {
        guard output != "-", !output.isEmpty,
            let type = try? FileManager.default.attributesOfItem(atPath: output)[.type] as? FileAttributeType,
            type == .typeRegular
        else { return }
        try? FileManager.default.removeItem(atPath: output)
    }

    /// Fails, naming `output`, if it is one of `inputs` (standard output and standard input never are).
    static func checkNotAnInput(_ output: String, inputs: [String]) throws(TraceError) {
        guard output != "-" else { return }
        let target = identity(output)
        for input in inputs where input != "-" {
            if input == output || (target != nil && identity(input) == target) {
                throw TraceError(
                    .io, file: output, at: .file, "is also an input (\(input)): write the output to another file")
            }
        }
    }
}

/// A file as the file system knows it, whatever path names it.
struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64
}
